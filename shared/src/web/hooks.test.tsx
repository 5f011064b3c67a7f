import { createEvent, fireEvent, render, screen } from '@testing-library/react';
import { useFileDrop, useStrayFileDropGuard } from './hooks';

function Target({ onFiles, active = true }: { onFiles: (files: File[]) => void; active?: boolean }) {
  const { ref, over } = useFileDrop<HTMLDivElement>(onFiles, active);
  return (
    <div ref={ref} data-testid="target" data-over={String(over)}>
      <span data-testid="child">child</span>
    </div>
  );
}

const file = (name: string) => new File(['x'], name);
const files = (...names: string[]) => ({ dataTransfer: { files: names.map(file), types: ['Files'] } });

/** A dragleave as a browser sends it: relatedTarget is where the pointer went. */
function dragLeave(from: Element, to: Element | null) {
  const event = createEvent.dragLeave(from, files());
  Object.defineProperty(event, 'relatedTarget', { value: to });
  fireEvent(from, event);
}

describe('useFileDrop', () => {
  it('stays "over" when the drag moves onto a child, and ends when it leaves the target', () => {
    render(<Target onFiles={() => undefined} />);
    const target = screen.getByTestId('target');
    fireEvent.dragOver(target, files('a.txt'));
    expect(target).toHaveAttribute('data-over', 'true');
    dragLeave(target, screen.getByTestId('child'));
    expect(target).toHaveAttribute('data-over', 'true');
    dragLeave(screen.getByTestId('child'), target);
    expect(target).toHaveAttribute('data-over', 'true');
    dragLeave(target, document.body);
    expect(target).toHaveAttribute('data-over', 'false');
  });

  it('takes a paste right after a drop on the target, and none once the pointer left', () => {
    const got: string[] = [];
    render(<Target onFiles={(f) => got.push(...f.map((x) => x.name))} />);
    const target = screen.getByTestId('target');
    fireEvent.dragOver(target, files('dropped.txt'));
    fireEvent.drop(target, files('dropped.txt'));
    // no pointerenter comes after a drag
    fireEvent.paste(document, { clipboardData: { files: [file('pasted.png')] } });
    expect(got).toEqual(['dropped.txt', 'pasted.png']);
    fireEvent.pointerLeave(target);
    fireEvent.paste(document, { clipboardData: { files: [file('elsewhere.png')] } });
    expect(got).toEqual(['dropped.txt', 'pasted.png']);
  });

  it('listens to nothing while inactive (a closed dialog), even if the pointer was over it', () => {
    const got: string[] = [];
    const { rerender } = render(<Target onFiles={(f) => got.push(...f.map((x) => x.name))} />);
    fireEvent.pointerEnter(screen.getByTestId('target'));
    rerender(<Target onFiles={(f) => got.push(...f.map((x) => x.name))} active={false} />);
    const paste = createEvent.paste(document, { clipboardData: { files: [file('pasted.png')] } });
    fireEvent(document, paste);
    expect(paste.defaultPrevented).toBe(false);
    expect(got).toEqual([]);
  });
});

function Guarded({ active }: { active: boolean }) {
  useStrayFileDropGuard(active);
  return <Target onFiles={() => undefined} />;
}

describe('useStrayFileDropGuard', () => {
  it('keeps the browser from opening a file dropped beside the target, only while active and only for files', () => {
    const { rerender, unmount } = render(<Guarded active />);
    // fireEvent returns false when the default was prevented
    expect(fireEvent.dragOver(document.body, files('a.pdf'))).toBe(false);
    expect(fireEvent.drop(document.body, files('a.pdf'))).toBe(false);
    expect(fireEvent.dragOver(document.body, { dataTransfer: { files: [], types: ['text/plain'] } })).toBe(true);
    rerender(<Guarded active={false} />);
    expect(fireEvent.drop(document.body, files('a.pdf'))).toBe(true);
    rerender(<Guarded active />);
    unmount();
    expect(fireEvent.drop(document.body, files('a.pdf'))).toBe(true);
  });
});
