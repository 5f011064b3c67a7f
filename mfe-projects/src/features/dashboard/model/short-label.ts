/** Chart axis labels: at most `max` characters, a long name cut with an ellipsis (the last of them). */
export function shortLabel(text: string, max = 24): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('').trimEnd()}…`;
}
