/**
 * antd's `theme` as the portal uses it: the default and dark algorithms and `useToken`. antd's own
 * `theme` object also holds the compact algorithm and `getDesignToken`, which would then come to
 * the first page unused (an object's members are not tree-shaken).
 */
import useAntdToken from 'antd/es/theme/useToken';
import darkAlgorithm from 'antd/es/theme/themes/dark';
import defaultAlgorithm from 'antd/es/theme/themes/default';

/** The design tokens in effect where it is called (the nearest ConfigProvider's theme). */
function useToken() {
  const [antdTheme, token, hashId] = useAntdToken();
  return { theme: antdTheme, token, hashId };
}

export const theme = { defaultAlgorithm, darkAlgorithm, useToken };
