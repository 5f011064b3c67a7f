/** What the files screens' tests share: folders, files, and files the browser can send. */
import { File as NodeFile } from 'node:buffer';
import type { Folder, ProjectFile } from '@portal/shared/core/files';

const sam = { id: 'u1', name: 'Sam Staff', email: 'sam@demo.test' };

export function makeFolder(id: string, name: string, parentId: string | null): Folder {
  return { id, projectId: 'p1', parentId, name, createdAt: '2026-01-02T10:00:00.000Z', createdBy: sam };
}

export function makeFile(id: string, name: string, folderId: string, extra: Partial<ProjectFile> = {}): ProjectFile {
  return {
    id,
    projectId: 'p1',
    folderId,
    name,
    contentType: 'application/octet-stream',
    size: 2048,
    sha256: 'a'.repeat(64),
    version: 1,
    versionCount: 1,
    uploadedBy: sam,
    createdAt: '2026-01-03T10:00:00.000Z',
    updatedAt: '2026-01-03T10:00:00.000Z',
    taskCount: 0,
    ...extra,
  };
}

/**
 * A file as a user picks or drops it. Node's File, because the api's multipart body is built with the
 * FormData of Node's fetch (which msw reads), and that FormData takes only Node's Blob.
 */
export function pickedFile(name: string, content = 'hello'): File {
  return new NodeFile([content], name, { type: 'application/octet-stream' }) as unknown as File;
}

/** A file that claims `size` bytes without holding them (the browser's checks read only the size). */
export function hugeFile(name: string, size: number): File {
  const file = pickedFile(name, 'x');
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

/** A promise the test settles when it wants a pending reply to go on. */
export function gate(): { wait: Promise<void>; open: () => void } {
  let open = () => undefined as void;
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { wait, open };
}
