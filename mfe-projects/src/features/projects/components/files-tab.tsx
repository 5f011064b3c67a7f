import { Empty } from '@portal/shared/ui/extra';

/**
 * The Files tab. Files and folders arrive with the files module; the tab already reads its place
 * from the address (`filesPage`, `folderId`) so links made today keep working then.
 */
export function FilesTab({ page, folderId }: { page: number; folderId: string | null }) {
  return (
    <div data-files-page={page} data-folder-id={folderId ?? undefined}>
      <Empty description="Files arrive with the files module: the project’s files and folders will be listed here." />
    </div>
  );
}
