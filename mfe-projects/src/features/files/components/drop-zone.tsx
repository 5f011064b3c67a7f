import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useFileDrop } from '@portal/shared/web/hooks';

/** A folder that files can be dropped on: the element carries `data-folder-drop` (its id) and `data-folder-name`. */
export interface DropFolder {
  id: string;
  name: string;
}

export const folderDropProps = (folder: DropFolder) => ({
  'data-folder-drop': folder.id,
  'data-folder-name': folder.name,
});

function folderAt(target: EventTarget | null): DropFolder | null {
  const hit = target instanceof Element ? target.closest('[data-folder-drop]') : null;
  const id = hit?.getAttribute('data-folder-drop');
  return hit && id ? { id, name: hit.getAttribute('data-folder-name') ?? '' } : null;
}

/**
 * Where files are dropped or pasted (only while the pointer is over it). A drop on a
 * folder inside it (a row or card with folderDropProps) goes into that folder; anything else, and a
 * paste, into the folder on screen. While files are dragged over it the area is outlined, and so is the
 * folder under the pointer (`children` gets its id).
 */
export function DropZone({
  onFiles,
  hint,
  children,
}: {
  onFiles: (files: File[], folder: DropFolder | null) => void;
  hint: string;
  children: (overFolderId: string | null) => ReactNode;
}) {
  const target = useRef<DropFolder | null>(null);
  const [overFolder, setOverFolder] = useState<string | null>(null);
  const { ref, over } = useFileDrop<HTMLDivElement>((files) => onFiles(files, target.current));
  useEffect(() => {
    if (!over) {
      target.current = null;
      setOverFolder(null);
    }
  }, [over]);
  return (
    <div
      ref={ref}
      data-testid="files-drop-target"
      data-drag-over={over || undefined}
      role="region"
      aria-label={hint}
      // React's capture handlers run before the hook's listener on this element, so the drop knows its folder
      onDragOverCapture={(e) => {
        const folder = folderAt(e.target);
        target.current = folder;
        setOverFolder(folder?.id ?? null);
      }}
      onDropCapture={(e) => {
        target.current = folderAt(e.target);
      }}
      style={{
        position: 'relative',
        borderRadius: 8,
        outline: over ? '2px dashed #1677ff' : '1px dashed transparent',
        outlineOffset: 4,
        background: over ? 'rgba(22, 119, 255, 0.04)' : undefined,
        transition: 'background 0.15s',
      }}
    >
      {children(over ? overFolder : null)}
    </div>
  );
}
