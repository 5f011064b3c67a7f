/** Chart axis labels: at most `max` characters, a long name cut with an ellipsis (the last of them). */
export function shortLabel(text: string, max = 24): string {
  const chars = [...text];
  return chars.length <= max
    ? text
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

/**
 * `text` as it fits in `maxWidth` (as `measure` gives widths): whole when it fits, else the longest
 * start that fits with an ellipsis (at least one character). chart.js gives a side axis at most half
 * the chart's width and clips what is wider, cutting the start of long names off.
 */
export function fitLabel(text: string, maxWidth: number, measure: (text: string) => number): string {
  if (measure(text) <= maxWidth) return text;
  const chars = [...(text.endsWith('…') ? text.slice(0, -1) : text)];
  const cut = (n: number) => `${chars.slice(0, n).join('').trimEnd()}…`;
  // the longest start that fits: widths grow with the number of characters
  let lo = 1;
  let hi = chars.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(cut(mid)) <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return cut(lo);
}
