import { Input, SearchOutlined } from '@portal/shared/ui/extra';
import { SEARCH_DELAY_MS, useDebouncedText } from '@portal/shared/web/hooks';

/**
 * A search field whose text follows the address (back, forward, a link) and, after a pause in typing,
 * sets it: one address change and one request per pause, not per key.
 */
export function SearchBox({
  value,
  onSearch,
  label,
  placeholder,
  delayMs = SEARCH_DELAY_MS,
}: {
  value: string;
  onSearch: (text: string) => void;
  label: string;
  placeholder?: string;
  delayMs?: number;
}) {
  const [text, setText] = useDebouncedText(value, onSearch, delayMs);
  return (
    <Input
      aria-label={label}
      placeholder={placeholder ?? label}
      prefix={<SearchOutlined />}
      allowClear
      value={text}
      onChange={(e) => setText(e.target.value)}
      style={{ maxWidth: 320 }}
    />
  );
}
