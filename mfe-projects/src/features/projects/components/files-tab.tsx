import type { Project } from '@portal/shared/core/projects';
import { FilesBrowser } from '../../files/components/files-browser';

/**
 * The Files tab: the project's folders and files. Its place is in the address (`folderId`, `filesPage`,
 * `filesView`, `filesSort`, `filesSearch`), kept when another tab is chosen, so back and forward and a
 * shared link come back to the same folder and page.
 */
export function FilesTab({ project }: { project: Project }) {
  return <FilesBrowser project={project} />;
}
