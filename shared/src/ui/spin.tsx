/**
 * The portal's Spin: antd's loading indicator (its four turning dots, in its three sizes, in the
 * theme's primary colour) for the first-page kit. antd's own Spin is the last antd component with
 * styles of its own on the first page: with it would come antd's component style machinery, about
 * 8 KB gzip, for a loading indicator. The same props as antd's for what the portal uses: `size`,
 * `spinning` (false: nothing, or the children as they are) and children (shown dimmed and inert under
 * the indicator while spinning). ARIA attributes go to the indicator; named (`aria-label`), it is a
 * status that assistive technology announces.
 */
import type { CSSProperties, HTMLAttributes, ReactNode } from 'react';
import { theme } from './theme';
import { useFrameSheet } from './frame-sheet';

export interface SpinProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  size?: 'small' | 'default' | 'large';
  /** false: no indicator (default true) */
  spinning?: boolean;
  /** shown under the indicator, dimmed and inert while spinning */
  children?: ReactNode;
}

/** The turning dots, as a live region; named, a status. */
function SpinIndicator({ dotSize, className, style, ...rest }: HTMLAttributes<HTMLDivElement> & { dotSize: number }) {
  const { token } = theme.useToken();
  return (
    <div
      role={rest['aria-label'] ? 'status' : undefined}
      aria-live="polite"
      aria-busy="true"
      {...rest}
      className={['portal-spin', 'portal-spin-spinning', className].filter(Boolean).join(' ')}
      style={{ '--ps-color': token.colorPrimary, '--ps-size': `${dotSize}px`, ...style } as CSSProperties}
    >
      <span className="portal-spin-dot" aria-hidden="true">
        <i />
        <i />
        <i />
        <i />
      </span>
    </div>
  );
}

export function Spin({ size = 'default', spinning = true, children, className, style, ...rest }: SpinProps) {
  useFrameSheet();
  const { token } = theme.useToken();
  const dotSize =
    size === 'small'
      ? token.controlHeightLG * 0.35
      : size === 'large'
        ? token.controlHeight
        : token.controlHeightLG / 2;
  if (children === undefined)
    return spinning ? <SpinIndicator dotSize={dotSize} className={className} style={style} {...rest} /> : null;
  return (
    <div {...rest} className={className} style={{ position: 'relative', ...style }} aria-busy={spinning}>
      {spinning ? (
        <SpinIndicator
          dotSize={dotSize}
          style={{
            position: 'absolute',
            inset: 0,
            zIndex: 4,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            maxHeight: 400,
          }}
        />
      ) : null}
      <div
        style={
          spinning
            ? {
                opacity: 0.5,
                pointerEvents: 'none',
                userSelect: 'none',
                transition: `opacity ${token.motionDurationSlow}`,
              }
            : undefined
        }
      >
        {children}
      </div>
    </div>
  );
}
