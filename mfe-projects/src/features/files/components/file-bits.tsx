/** Small pieces the files screens share: icons, people, downloads and the upload-as-version question. */
import { FileTypeIcon } from '@portal/shared/ui/components';
import { FolderOutlined, type Modal } from '@portal/shared/ui/extra';
import type { FileUserRef } from '@portal/shared/core/files';
import { downloadSignedFile } from '@portal/shared/web/download';

export function FolderIcon({ size = 16 }: { size?: number }) {
  return <FolderOutlined role="img" aria-label="folder" style={{ fontSize: size, color: '#d48806' }} />;
}

/** The file-type icon at card size. */
export function BigFileIcon({ name }: { name: string }) {
  return (
    <span style={{ display: 'inline-block', transform: 'scale(1.8)', margin: '12px 0' }}>
      <FileTypeIcon name={name} />
    </span>
  );
}

export function userName(user: FileUserRef | null): string {
  return user ? user.name || user.email : 'Former user';
}

/** Starts a download through a signed link; a refusal (gone, no access) is a toast, as the api's other errors are. */
export function startDownload(fileId: string, versionId?: string): void {
  void downloadSignedFile(fileId, versionId ? { versionId } : {});
}

type ModalApi = ReturnType<typeof Modal.useModal>[0];

/** Asks whether a file whose name is taken in the folder should be uploaded as a new version of it. */
export function askUploadAsVersion(modal: ModalApi, name: string, folderName: string): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    modal
      .confirm({
        title: `${name} already exists in ${folderName}`,
        content: 'Upload it as a new version of that file? Its earlier versions stay downloadable.',
        okText: 'Upload as a new version',
        cancelText: 'Cancel',
      })
      .then(resolve, () => resolve(false));
  });
}
