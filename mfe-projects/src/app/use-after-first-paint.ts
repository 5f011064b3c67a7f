import { useEffect, useState } from 'react';

/**
 * False on the first render, true once the browser has painted it. Home is the first page after
 * sign-in: its heavy parts (the list's antd kit, chart.js) start loading only after the frame is on
 * screen, so what the user waits for before seeing the page stays small (bench/bundle measures it).
 */
export function useAfterFirstPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // rAF runs just before the next paint; the timeout after it, once that paint is done.
    const frame =
      typeof requestAnimationFrame === 'function'
        ? requestAnimationFrame(() => (timer = setTimeout(() => setPainted(true), 0)))
        : undefined;
    if (frame === undefined) timer = setTimeout(() => setPainted(true), 0);
    return () => {
      if (frame !== undefined) cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, []);
  return painted;
}
