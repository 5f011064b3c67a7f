/**
 * antd's Button, as a kit of its own. Provided by the shell like `@portal/shared/ui` (one antd
 * instance and context), but loaded only when a page first uses it: antd's Button brings its wave
 * effect, its compact-space styles and the colour picker's colour model (it takes any colour),
 * about 8 KB gzip that no first page needs. The frame and the first page use `FrameButton`
 * (`@portal/shared/ui/components`) instead.
 */
export { Button } from 'antd';
export type { ButtonProps } from 'antd';
