import { useCallback, useEffect, useRef, useState, type ChangeEvent } from 'react';
import { AppstoreOutlined } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { Breadcrumb } from '@portal/shared/ui/menus';
import {
  Empty,
  Flex,
  FolderAddOutlined,
  Modal,
  Pagination,
  Radio,
  Typography,
  UnorderedListOutlined,
  UploadOutlined,
} from '@portal/shared/ui/extra';
import { Link } from '@portal/shared/web/router';
import { publishToast } from '@portal/shared/web/events';
import { useStrayFileDropGuard } from '@portal/shared/web/hooks';
import type { Folder, ProjectFile } from '@portal/shared/core/files';
import type { Project } from '@portal/shared/core/projects';
import { filesApi } from '../../../app/files-api';
import { pageValue, useAddress, type AddressChanges } from '../../projects/hooks/use-address';
import { LoadFailedEmpty } from '../../projects/components/page-states';
import { SearchBox } from '../../projects/components/search-box';
import { useUploads } from '../hooks/use-uploads';
import {
  DEFAULT_FILE_SORT,
  FILES_PAGE_SIZE,
  FILES_PARAMS,
  filesListState,
  filesQuery,
  openFolderChanges,
  type FileSort,
} from '../model/files-address';
import { childrenOf, folderPath, rootOf } from '../model/folder-tree';
import { DropZone, type DropFolder } from './drop-zone';
import { askUploadAsVersion, startDownload } from './file-bits';
import { MoveModal, NameModal, type FilesForm } from './files-modals';
import { FilesGrid, FilesTable, GridSortSelect, type FilesActions } from './files-views';
import { UploadPanel } from './upload-panel';
import { VersionsModal } from './versions-modal';

/** The address after `changes`, as a link's target (the same rule as useAddress). */
function searchWith(params: URLSearchParams, changes: AddressChanges): string {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined || value === '') next.delete(key);
    else next.set(key, String(value));
  }
  const text = next.toString();
  return text ? `?${text}` : '?';
}

const folderLabel = (folder: Folder) => (folder.parentId === null ? 'Files' : folder.name);

/**
 * A project's files, one folder at a time. The address is the state: `folderId` (the root when absent),
 * `filesPage`, `filesView` (grid or list), `filesSort` and `filesSearch`; opening a folder pushes a
 * history entry and starts at its first page, so back and forward walk the folders. Writers upload
 * (button, drop or paste on the area; a drop on a folder goes into it), and create, rename, move and
 * delete folders and files; readers browse and download.
 */
export function FilesBrowser({ project }: { project: Project }) {
  const projectId = project.id;
  const canWrite = project.permissions.write;
  const [params, change] = useAddress();
  const state = filesListState(params);
  const folders = filesApi.useFilesFoldersQuery(projectId);
  const all = folders.data ?? [];
  const root = rootOf(folders.data);
  const current = state.folderId ? all.find((f) => f.id === state.folderId) : root;
  const folderMissing = !!state.folderId && !!folders.data && !current;
  const list = filesApi.useFilesListQuery({ projectId, ...filesQuery(state) }, { skip: folderMissing });

  const [modal, modalHolder] = Modal.useModal();
  const askVersion = useCallback(
    (name: string, folderName: string) => askUploadAsVersion(modal, name, folderName),
    [modal],
  );
  const uploads = useUploads(projectId, askVersion);
  useStrayFileDropGuard();
  const [form, setForm] = useState<FilesForm | null>(null);
  const [versionsOf, setVersionsOf] = useState<ProjectFile | null>(null);
  const picker = useRef<HTMLInputElement>(null);

  const [createFolder] = filesApi.useFilesFolderCreateMutation();
  const [updateFolder] = filesApi.useFilesFolderUpdateMutation();
  const [deleteFolder] = filesApi.useFilesFolderDeleteMutation();
  const [updateFile] = filesApi.useFilesUpdateMutation();
  const [deleteFile] = filesApi.useFilesDeleteMutation();

  // A new search or sort starts again from the first page.
  const refine = (changes: AddressChanges, options?: { replace?: boolean }) =>
    change({ ...changes, [FILES_PARAMS.page]: null }, options);
  const openFolder = (folder: Folder | null) => change(openFolderChanges(folder?.id ?? null, root?.id));
  const folderHref = (folder: Folder | null) => searchWith(params, openFolderChanges(folder?.id ?? null, root?.id));
  const setSort = (sort: FileSort) => refine({ [FILES_PARAMS.sort]: sort === DEFAULT_FILE_SORT ? null : sort });

  const send = (files: File[], folder: DropFolder | null) => {
    if (!files.length) return;
    const target = folder ?? (current ? { id: current.id, name: folderLabel(current) } : null);
    if (target) void uploads.add(files, { folderId: target.id, folderName: target.name });
    else
      publishToast({
        severity: 'warn',
        summary: 'Nothing was uploaded',
        detail: 'The folder is not known yet: wait until the folders are loaded, then try again.',
      });
  };
  const onPicked = (e: ChangeEvent<HTMLInputElement>) => {
    send(Array.from(e.target.files ?? []), null);
    e.target.value = '';
  };

  const confirmDelete = (title: string, content: string, okText: string, action: () => Promise<unknown>) =>
    void modal.confirm({
      title,
      content,
      okText,
      okButtonProps: { danger: true },
      // a refusal (files on open tasks...) is the shell's toast; the row stays
      onOk: () => action().catch(() => undefined),
    });

  const actions: FilesActions = {
    folderHref,
    openFolder,
    renameFolder: (folder) => setForm({ kind: 'renameFolder', folder }),
    moveFolder: (folder) => setForm({ kind: 'moveFolder', folder }),
    deleteFolder: (folder) =>
      confirmDelete(
        `Delete the folder ${folder.name}?`,
        'Its subfolders and every file in them, with all their versions, are deleted with it. This cannot be undone.',
        'Delete folder',
        () => deleteFolder({ projectId, folderId: folder.id }).unwrap(),
      ),
    download: (file) => startDownload(file.id),
    versions: (file) => setVersionsOf(file),
    renameFile: (file) => setForm({ kind: 'renameFile', id: file.id, name: file.name }),
    moveFile: (file) => setForm({ kind: 'moveFile', id: file.id, name: file.name, folderId: file.folderId }),
    deleteFile: (file) =>
      confirmDelete(
        `Delete ${file.name}?`,
        `All its versions are deleted${file.taskCount ? ` and it is detached from ${file.taskCount === 1 ? 'its task' : `its ${file.taskCount} tasks`}` : ''}. This cannot be undone.`,
        'Delete file',
        () => deleteFile({ projectId, fileId: file.id }).unwrap(),
      ),
  };

  const needle = state.search?.toLocaleLowerCase();
  const subfolders = current
    ? childrenOf(all, current.id).filter((f) => !needle || f.name.toLocaleLowerCase().includes(needle))
    : [];
  if (state.sort === '-name') subfolders.reverse();
  const files = list.currentData?.results ?? [];
  const total = list.currentData?.total ?? 0;
  const loading = list.isFetching || folders.isLoading;
  const foldersFailed = folders.isError && !folders.isFetching;

  // Past the last page (after deletions elsewhere, or an old link): go to the last page there is.
  const lastPage = list.currentData ? Math.max(1, Math.ceil(total / FILES_PAGE_SIZE)) : null;
  const pastTheEnd = lastPage !== null && !list.isFetching && state.page > lastPage;
  useEffect(() => {
    if (pastTheEnd && lastPage !== null) change({ [FILES_PARAMS.page]: pageValue(lastPage) }, { replace: true });
  }, [pastTheEnd, lastPage, change]);

  const empty =
    state.page > 1 && total > 0 ? (
      <Empty description={`There is no page ${state.page}.`}>
        <Button onClick={() => change({ [FILES_PARAMS.page]: null })}>Go to the first page</Button>
      </Empty>
    ) : state.search ? (
      <Empty description={`No files or folders match “${state.search}”.`} />
    ) : (
      <Empty description="No files in this folder yet">
        {canWrite ? <Typography.Text type="secondary">Upload files, or drop them here.</Typography.Text> : null}
      </Empty>
    );

  const path = current ? folderPath(all, current.id) : [];
  const crumbs = (path.length ? path : [null]).map((f, i, arr) => {
    const label = f ? folderLabel(f) : 'Files';
    const last = i === arr.length - 1;
    return {
      key: f?.id ?? 'root',
      title: last ? <span aria-current="location">{label}</span> : <Link to={folderHref(f)}>{label}</Link>,
    };
  });

  const viewProps = {
    folders: subfolders,
    files,
    loading,
    canWrite,
    actions,
    sort: state.sort,
    onSort: setSort,
    empty,
  };
  const content = (overFolderId: string | null) => {
    if (folderMissing) {
      return (
        <Empty description="This folder does not exist any more: it was deleted or moved out of this project.">
          <Button onClick={() => openFolder(null)}>Go to Files</Button>
        </Empty>
      );
    }
    if (foldersFailed) return <LoadFailedEmpty what="folders" onRetry={() => void folders.refetch()} />;
    if (list.isError && !list.isFetching) return <LoadFailedEmpty what="files" onRetry={() => void list.refetch()} />;
    return state.view === 'grid' ? (
      <FilesGrid {...viewProps} overFolderId={overFolderId} />
    ) : (
      <FilesTable {...viewProps} overFolderId={overFolderId} />
    );
  };

  const closeForm = () => setForm(null);

  return (
    <Flex vertical gap="middle" data-testid="files-tab">
      {modalHolder}
      <Flex gap="small" wrap align="center">
        <nav aria-label="Folder path">
          <Breadcrumb items={crumbs} />
        </nav>
        <Flex gap="small" wrap align="center" style={{ marginInlineStart: 'auto' }}>
          <SearchBox
            label="Search files"
            placeholder="Search this folder"
            value={state.search ?? ''}
            onSearch={(text) => refine({ [FILES_PARAMS.search]: text }, { replace: true })}
          />
          {state.view === 'grid' ? <GridSortSelect sort={state.sort} onSort={setSort} /> : null}
          <Radio.Group
            aria-label="View"
            optionType="button"
            value={state.view}
            onChange={(e) => change({ [FILES_PARAMS.view]: e.target.value === 'grid' ? 'grid' : null })}
            options={[
              {
                value: 'list',
                label: (
                  <>
                    <UnorderedListOutlined /> List
                  </>
                ),
              },
              {
                value: 'grid',
                label: (
                  <>
                    <AppstoreOutlined /> Grid
                  </>
                ),
              },
            ]}
          />
          {canWrite ? (
            <>
              <Button icon={<FolderAddOutlined />} disabled={!current} onClick={() => setForm({ kind: 'newFolder' })}>
                New folder
              </Button>
              <Button
                type="primary"
                icon={<UploadOutlined />}
                disabled={!current}
                onClick={() => picker.current?.click()}
              >
                Upload
              </Button>
              <input ref={picker} type="file" multiple hidden aria-label="Files to upload" onChange={onPicked} />
            </>
          ) : null}
        </Flex>
      </Flex>
      {canWrite ? (
        <DropZone
          onFiles={send}
          hint={`Drop or paste files here to upload them to ${current ? folderLabel(current) : 'Files'}`}
        >
          {content}
        </DropZone>
      ) : (
        content(null)
      )}
      {total > FILES_PAGE_SIZE || state.page > 1 ? (
        <Pagination
          align="end"
          current={state.page}
          pageSize={FILES_PAGE_SIZE}
          total={total}
          showSizeChanger={false}
          showTotal={(n) => `${n} files`}
          onChange={(page) => change({ [FILES_PARAMS.page]: pageValue(page) })}
        />
      ) : null}
      <UploadPanel items={uploads.items} onCancel={uploads.cancel} onClear={uploads.clearFinished} />

      {form?.kind === 'newFolder' && current ? (
        <NameModal
          title={`New folder in ${folderLabel(current)}`}
          okText="Create folder"
          label="Folder name"
          forFolder
          onClose={closeForm}
          onSubmit={(name) => createFolder({ projectId, body: { name, parentId: current.id } }).unwrap()}
        />
      ) : null}
      {form?.kind === 'renameFolder' ? (
        <NameModal
          title={`Rename the folder ${form.folder.name}`}
          okText="Rename"
          label="Folder name"
          initial={form.folder.name}
          forFolder
          onClose={closeForm}
          onSubmit={(name) =>
            name === form.folder.name
              ? Promise.resolve()
              : updateFolder({ projectId, folderId: form.folder.id, body: { name } }).unwrap()
          }
        />
      ) : null}
      {form?.kind === 'moveFolder' ? (
        <MoveModal
          what={`the folder ${form.folder.name}`}
          folders={all}
          moving={form.folder}
          current={form.folder.parentId ?? ''}
          onClose={closeForm}
          onSubmit={(parentId) => updateFolder({ projectId, folderId: form.folder.id, body: { parentId } }).unwrap()}
        />
      ) : null}
      {form?.kind === 'renameFile' ? (
        <NameModal
          title={`Rename ${form.name}`}
          okText="Rename"
          label="File name"
          initial={form.name}
          forFolder={false}
          onClose={closeForm}
          onSubmit={(name) =>
            name === form.name ? Promise.resolve() : updateFile({ projectId, fileId: form.id, body: { name } }).unwrap()
          }
        />
      ) : null}
      {form?.kind === 'moveFile' ? (
        <MoveModal
          what={form.name}
          folders={all}
          current={form.folderId}
          onClose={closeForm}
          onSubmit={(folderId) => updateFile({ projectId, fileId: form.id, body: { folderId } }).unwrap()}
        />
      ) : null}
      <VersionsModal projectId={projectId} file={versionsOf} onClose={() => setVersionsOf(null)} />
    </Flex>
  );
}
