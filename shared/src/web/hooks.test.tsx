import { act, createEvent, fireEvent, render, renderHook, screen } from '@testing-library/react';
import { SEARCH_DELAY_MS, useDebouncedText, useFileDrop, useStrayFileDropGuard } from './hooks';

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

describe('useDebouncedText', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('hands the trimmed text over once typing pauses, once per pause, and not when it is the value already', () => {
    const commit = jest.fn();
    const { result } = renderHook(() => useDebouncedText('', commit));
    act(() => result.current[1]('fi'));
    act(() => jest.advanceTimersByTime(SEARCH_DELAY_MS - 50));
    act(() => result.current[1]('fire '));
    act(() => jest.advanceTimersByTime(SEARCH_DELAY_MS - 1));
    expect(commit).not.toHaveBeenCalled();
    act(() => jest.advanceTimersByTime(1));
    expect(commit.mock.calls).toEqual([['fire']]);
    expect(result.current[0]).toBe('fire ');
    // a space more names the same search: nothing to hand over
    act(() => result.current[1]('fire  '));
    act(() => jest.advanceTimersByTime(SEARCH_DELAY_MS * 2));
    expect(commit).toHaveBeenCalledTimes(1);
  });

  it('follows the value when it changes outside (back, clearing the filters) without handing it back', () => {
    const commit = jest.fn();
    const { result, rerender } = renderHook(({ value }) => useDebouncedText(value, commit, 100), {
      initialProps: { value: 'fire' },
    });
    expect(result.current[0]).toBe('fire');
    rerender({ value: '' });
    expect(result.current[0]).toBe('');
    act(() => jest.advanceTimersByTime(500));
    expect(commit).not.toHaveBeenCalled();
    // typing then a change from outside before the pause ends: the outside value wins
    act(() => result.current[1]('wall'));
    rerender({ value: 'policy' });
    act(() => jest.advanceTimersByTime(500));
    expect(result.current[0]).toBe('policy');
    expect(commit).not.toHaveBeenCalled();
  });
});
