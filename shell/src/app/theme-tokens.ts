import type { ThemeConfig } from '@portal/shared/ui';

/**
 * The light theme's colours, darkened from antd's defaults so that text meets WCAG 2.1 AA contrast
 * (4.5:1) on the portal's white, #f5f5f5 and selected-item (#e6f4ff) backgrounds (issue 10): antd's
 * blue #1677ff reaches only 3.7:1 on its own selected background and 4.1:1 under white button text,
 * its secondary text (45% black) 3.3:1 on grey, its placeholders (25% black) 1.8:1, its red 3.3:1.
 * The dark algorithm keeps antd's palette.
 */
export const LIGHT_TOKENS: NonNullable<ThemeConfig['token']> = {
  colorPrimary: '#0958d9',
  colorInfo: '#0958d9',
  colorLink: '#0958d9',
  colorError: '#cf1322',
  colorSuccess: '#237804',
  colorWarning: '#874d00',
  // antd derives a warning's background and border from colorWarning: from this dark brown they came
  // out khaki (rgb(199, 194, 179)). The alerts keep antd's own light gold under the dark text and icon.
  colorWarningBg: '#fffbe6',
  colorWarningBorder: '#ffe58f',
  colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
  colorTextDescription: 'rgba(0, 0, 0, 0.62)',
  colorTextPlaceholder: 'rgba(0, 0, 0, 0.58)',
};

/**
 * Tags of a preset colour (`<Tag color="green">`) write their text in the palette's 7th shade on its
 * 1st: 3.3 to 3.6:1 at the tag's 12 px. The 9th shade reads at 7:1 or more on the same tint.
 */
export const LIGHT_COMPONENTS: NonNullable<ThemeConfig['components']> = {
  // a table's empty text ("No subtasks.") and its filter's "Not Found" are written in the disabled
  // colour (25% black, 1.8:1): inside tables only, the secondary text colour instead
  Table: { colorTextDisabled: 'rgba(0, 0, 0, 0.62)' },
  Tag: {
    blue7: '#002c8c',
    geekblue7: '#061178',
    purple7: '#22075e',
    magenta7: '#780650',
    pink7: '#780650',
    red7: '#820014',
    volcano7: '#771d00',
    orange7: '#612500',
    gold7: '#613400',
    yellow7: '#614700',
    lime7: '#254000',
    green7: '#135200',
    cyan7: '#00474f',
  },
};
