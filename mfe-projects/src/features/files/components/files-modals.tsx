/** The files tab's forms: a folder's name, a file's name, and where a folder or file moves to. */
import { Form, Input, TreeSelect, Typography } from '@portal/shared/ui/extra';
import { schemaRule } from '@portal/shared/core/errors';
import { fileUpdateSchema, folderCreateSchema, type Folder } from '@portal/shared/core/files';
import { FormModal } from '../../projects/components/form-modal';
import { onField } from '../model/errors';
import { folderTree, isWithin } from '../model/folder-tree';

/** The open form of the tab, if any: what it acts on. */
export type FilesForm =
  | { kind: 'newFolder' }
  | { kind: 'renameFolder'; folder: Folder }
  | { kind: 'moveFolder'; folder: Folder }
  | { kind: 'renameFile'; id: string; name: string }
  | { kind: 'moveFile'; id: string; name: string; folderId: string };

interface NameValues {
  name: string;
}
interface PlaceValues {
  place: string;
}

/** A name form (new folder, rename): the api's refusal (name taken...) shows under the field. */
export function NameModal({
  title,
  okText,
  label,
  initial,
  forFolder,
  onSubmit,
  onClose,
}: {
  title: string;
  okText: string;
  label: string;
  initial?: string;
  forFolder: boolean;
  onSubmit: (name: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const rule = forFolder ? folderCreateSchema.shape.name : fileUpdateSchema.shape.name.unwrap();
  return (
    <FormModal<NameValues>
      title={title}
      okText={okText}
      open
      initialValues={{ name: initial ?? '' }}
      onClose={onClose}
      onSubmit={(values) =>
        onSubmit(values.name.trim()).catch((error: unknown) => Promise.reject(onField(error, 'name')))
      }
    >
      <Form.Item name="name" label={label} rules={[schemaRule(rule)]}>
        <Input autoFocus />
      </Form.Item>
    </FormModal>
  );
}

/**
 * Where a folder or file goes: every folder is offered. For a folder, itself and its subfolders are
 * marked but not hidden: the api refuses them and its reason shows under the picker.
 */
export function MoveModal({
  what,
  folders,
  moving,
  current,
  onSubmit,
  onClose,
}: {
  what: string;
  folders: Folder[];
  /** The folder being moved (a file moves: undefined). */
  moving?: Folder;
  /** Where it is now. */
  current: string;
  onSubmit: (folderId: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const treeData = folderTree(folders, (f) => {
    if (f.id === current) return 'current';
    if (moving && f.id === moving.id) return 'this folder';
    if (moving && isWithin(folders, f.id, moving.id)) return `inside ${moving.name}`;
    return null;
  });
  return (
    <FormModal<PlaceValues>
      title={`Move ${what}`}
      okText="Move"
      open
      initialValues={{ place: current }}
      onClose={onClose}
      onSubmit={async ({ place }) => {
        if (place === current) return;
        await onSubmit(place).catch((error: unknown) => Promise.reject(onField(error, 'place', { always: true })));
      }}
    >
      <Typography.Paragraph type="secondary">Choose the folder it moves to.</Typography.Paragraph>
      <Form.Item name="place" label="Move to" rules={[{ required: true, message: 'Choose a folder' }]}>
        <TreeSelect
          aria-label="Move to"
          treeData={treeData}
          treeDefaultExpandAll
          showSearch={{ treeNodeFilterProp: 'title' }}
          style={{ width: '100%' }}
        />
      </Form.Item>
    </FormModal>
  );
}
