/** Small shared pieces of UI: page headings, placeholders, file-type icons, role guard. */
import {
  useState,
  type AnchorHTMLAttributes,
  type ButtonHTMLAttributes,
  type CSSProperties,
  type ReactNode,
  type Ref,
} from 'react';
import { ExclamationCircleOutlined, LockOutlined, QuestionCircleOutlined, Spin, theme } from '@portal/shared/ui';
import { Link } from '@portal/shared/web/router';
import { useRoleAllowed, type PortalRole } from '@portal/shared/web/session';
import { useFrameSheet } from './frame-sheet';

type Token = ReturnType<typeof theme.useToken>['token'];

export type FrameButtonVariant = 'default' | 'primary' | 'text';

/**
 * The custom properties FrameButton's sheet (`frame-sheet.ts`) reads: antd's button of
 * `variant` (its default, primary and text buttons, middle size) in the theme's colours, light or
 * dark.
 */
export function frameButtonStyle(variant: FrameButtonVariant, token: Token): CSSProperties {
  const look =
    variant === 'primary'
      ? {
          color: token.colorTextLightSolid,
          bg: token.colorPrimary,
          border: token.colorPrimary,
          hover: [token.colorTextLightSolid, token.colorPrimaryHover, token.colorPrimaryHover],
          active: [token.colorTextLightSolid, token.colorPrimaryActive, token.colorPrimaryActive],
          shadow: `0 2px 0 ${token.controlOutline}`,
          disabled: [token.colorBgContainerDisabled, token.colorBorder],
        }
      : variant === 'text'
        ? {
            color: token.colorText,
            bg: 'transparent',
            border: 'transparent',
            hover: [token.colorText, token.colorFillTertiary, 'transparent'],
            active: [token.colorText, token.colorFill, 'transparent'],
            shadow: 'none',
            disabled: ['transparent', 'transparent'],
          }
        : {
            color: token.colorText,
            bg: token.colorBgContainer,
            border: token.colorBorder,
            hover: [token.colorPrimaryHover, token.colorBgContainer, token.colorPrimaryHover],
            active: [token.colorPrimaryActive, token.colorBgContainer, token.colorPrimaryActive],
            shadow: `0 2px 0 ${token.controlTmpOutline}`,
            disabled: [token.colorBgContainerDisabled, token.colorBorder],
          };
  return {
    '--pb-gap': `${token.marginXS}px`,
    '--pb-height': `${token.controlHeight}px`,
    '--pb-padding': `${token.paddingContentHorizontal - token.lineWidth}px`,
    '--pb-font-size': `${token.fontSize}px`,
    '--pb-line-height': String(token.lineHeight),
    '--pb-line-width': `${token.lineWidth}px`,
    '--pb-radius': `${token.borderRadius}px`,
    '--pb-motion': `${token.motionDurationMid} ${token.motionEaseInOut}`,
    '--pb-focus-width': `${token.lineWidthFocus}px`,
    '--pb-focus': token.colorPrimaryBorder,
    '--pb-color': look.color,
    '--pb-bg': look.bg,
    '--pb-border': look.border,
    '--pb-shadow': look.shadow,
    '--pb-hover-color': look.hover[0],
    '--pb-hover-bg': look.hover[1],
    '--pb-hover-border': look.hover[2],
    '--pb-active-color': look.active[0],
    '--pb-active-bg': look.active[1],
    '--pb-active-border': look.active[2],
    '--pb-disabled-color': token.colorTextDisabled,
    '--pb-disabled-bg': look.disabled[0],
    '--pb-disabled-border': look.disabled[1],
  } as CSSProperties;
}

interface FrameButtonLookProps {
  variant?: FrameButtonVariant;
  icon?: ReactNode;
  children?: ReactNode;
  className?: string;
  style?: CSSProperties;
}

/** The class and style a FrameButton or FrameLinkButton of `variant` renders with (square with an icon alone). */
function useFrameButtonLook({ variant = 'default', icon, children, className, style }: FrameButtonLookProps): {
  className: string;
  style: CSSProperties;
} {
  useFrameSheet();
  const { token } = theme.useToken();
  const iconOnly = icon != null && (children === undefined || children === null || children === false);
  return {
    className: ['portal-btn', iconOnly ? 'portal-btn-icon-only' : '', className ?? ''].filter(Boolean).join(' '),
    style: { ...frameButtonStyle(variant, token), ...style },
  };
}

function FrameButtonContent({ icon, children }: { icon?: ReactNode; children?: ReactNode }) {
  return (
    <>
      {icon ? (
        <span className="portal-btn-icon" aria-hidden="true">
          {icon}
        </span>
      ) : null}
      {children}
    </>
  );
}

export interface FrameButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> {
  variant?: FrameButtonVariant;
  /** Shown before the label; alone, the button is square (give it an `aria-label`). */
  icon?: ReactNode;
  htmlType?: 'button' | 'submit' | 'reset';
  ref?: Ref<HTMLButtonElement>;
}

/**
 * A button in antd's look for the frame (header, error states) and the first page. antd's Button
 * brings its wave effect, compact-space styles and the colour picker's colour model, about 8 KB
 * gzip on every first page; pages past the first use it from `@portal/shared/ui/button`. A plain
 * `<button type="button">`: keyboard, focus ring and disabled state as the browser gives them.
 */
export function FrameButton({
  variant,
  icon,
  htmlType = 'button',
  className,
  style,
  children,
  ref,
  ...rest
}: FrameButtonProps) {
  const look = useFrameButtonLook({ variant, icon, children, className, style });
  return (
    <button ref={ref} type={htmlType} {...rest} {...look}>
      <FrameButtonContent icon={icon}>{children}</FrameButtonContent>
    </button>
  );
}

export interface FrameLinkButtonProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  variant?: FrameButtonVariant;
  icon?: ReactNode;
  /** A link within the portal (client-side navigation); `href` for any other address. */
  to?: string;
}

/** A link that looks like a FrameButton (it goes somewhere: a page, the help site). */
export function FrameLinkButton({ variant, icon, to, className, style, children, ...rest }: FrameLinkButtonProps) {
  const look = useFrameButtonLook({ variant, icon, children, className, style });
  const content = <FrameButtonContent icon={icon}>{children}</FrameButtonContent>;
  return to !== undefined ? (
    <Link to={to} {...rest} {...look}>
      {content}
    </Link>
  ) : (
    <a {...rest} {...look}>
      {content}
    </a>
  );
}

/**
 * Where a page sits: Home, then `crumbs`, the last one the current page. A plain list of links in
 * antd's breadcrumb look: antd's Breadcrumb brings Dropdown and Menu (for crumbs with menus, which no
 * page header has), about 20 KB gzip on the first page.
 */
export function Breadcrumbs({ crumbs }: { crumbs: { title: string; to?: string }[] }) {
  const { token } = theme.useToken();
  const all = [{ title: 'Home', to: '/' }, ...crumbs];
  return (
    <nav
      aria-label="Breadcrumb"
      style={{ fontSize: token.fontSize, lineHeight: token.lineHeight, color: token.colorTextDescription }}
    >
      <ol style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', margin: 0, padding: 0, listStyle: 'none' }}>
        {all.map((c, i) => {
          const last = i === all.length - 1;
          return (
            <li key={`${i}-${c.title}`} style={{ display: 'inline-flex', alignItems: 'center' }}>
              {c.to && !last ? (
                <Link to={c.to} style={{ color: token.colorTextDescription }}>
                  {c.title}
                </Link>
              ) : (
                <span aria-current={last ? 'page' : undefined} style={last ? { color: token.colorText } : undefined}>
                  {c.title}
                </span>
              )}
              {last ? null : (
                <span aria-hidden="true" style={{ marginInline: token.marginXS }}>
                  /
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

export function PageHeader({
  title,
  crumbs = [],
  extra,
}: {
  title: string;
  crumbs?: { title: string; to?: string }[];
  extra?: ReactNode;
}) {
  const { token } = theme.useToken();
  return (
    <div style={{ marginBottom: 16 }}>
      <Breadcrumbs crumbs={crumbs} />
      <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 16 }}>
        <h1
          style={{
            margin: '8px 0 0',
            fontSize: token.fontSizeHeading2,
            fontWeight: 600,
            color: token.colorTextHeading,
          }}
        >
          {title}
        </h1>
        {extra}
      </div>
    </div>
  );
}

/** A bordered panel in the theme's colours, for first-page content (Card lives in the extra kit). */
export function Panel({ children, title }: { children: ReactNode; title?: string }) {
  const { token } = theme.useToken();
  return (
    <section
      style={{
        background: token.colorBgContainer,
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadiusLG,
        padding: 24,
      }}
    >
      {title ? <h3 style={{ marginTop: 0, color: token.colorTextHeading }}>{title}</h3> : null}
      {children}
    </section>
  );
}

/** A page whose content arrives in a later release: says so plainly instead of pretending. */
export function ComingSoon({ what }: { what: string }) {
  const { token } = theme.useToken();
  return (
    <Panel>
      <p style={{ margin: 0, textAlign: 'center', color: token.colorTextSecondary }}>
        {what} is not available yet. It is being built and will appear here in a coming release.
      </p>
    </Panel>
  );
}

const STATUS_ICONS = { warning: ExclamationCircleOutlined, forbidden: LockOutlined, notFound: QuestionCircleOutlined };

/**
 * A full-width status message (not found, no access, unavailable) with optional actions. Built on the
 * first-page kit so that error states never wait for more code to download.
 */
export function StatusPanel({
  kind,
  title,
  subTitle,
  extra,
  nested,
}: {
  kind: keyof typeof STATUS_ICONS;
  title: string;
  subTitle?: ReactNode;
  extra?: ReactNode;
  /** Shown under a page's own title (PageHeader): its title is then an h2, not the page's h1. */
  nested?: boolean;
}) {
  const { token } = theme.useToken();
  const Icon = STATUS_ICONS[kind];
  // a whole-page state names the page (its one h1)
  const Heading = nested ? 'h2' : 'h1';
  const color =
    kind === 'warning' ? token.colorWarning : kind === 'forbidden' ? token.colorError : token.colorTextTertiary;
  return (
    <div role={kind === 'warning' ? 'alert' : undefined} style={{ padding: '48px 24px', textAlign: 'center' }}>
      <Icon style={{ fontSize: 56, color }} aria-hidden />
      <Heading style={{ margin: '16px 0 8px', fontSize: token.fontSizeHeading3, color: token.colorTextHeading }}>
        {title}
      </Heading>
      {subTitle ? (
        <p style={{ margin: '0 auto 24px', maxWidth: 560, color: token.colorTextSecondary }}>{subTitle}</p>
      ) : null}
      {extra}
    </div>
  );
}

const FILE_TYPES: [RegExp, string, string][] = [
  [/\.pdf$/i, 'pdf', 'PDF'],
  [/\.(docx?|odt|rtf)$/i, 'word', 'DOC'],
  [/\.csv$/i, 'csv', 'CSV'],
  [/\.(xlsx?|ods)$/i, 'excel', 'XLS'],
  [/\.(pptx?|odp)$/i, 'powerpoint', 'PPT'],
  [/\.(png|jpe?g|gif|bmp|svg|webp|tiff?)$/i, 'image', 'IMG'],
  [/\.(zip|7z|rar|tar|gz|tgz)$/i, 'zip', 'ZIP'],
  [/\.(js|ts|tsx|jsx|json|py|java|go|rb|sh|sql|xml|ya?ml|html?|css)$/i, 'code', 'CODE'],
];
/** Badge backgrounds under white text: each at least 4.5:1 (WCAG AA). */
const FILE_COLORS: Record<string, string> = {
  pdf: '#ad2102',
  word: '#1d39c4',
  excel: '#237804',
  csv: '#237804',
  powerpoint: '#ad4e00',
  image: '#006d75',
  zip: '#7c3aed',
  code: '#434343',
  file: '#595959',
};

export function fileTypeOf(name: string): string {
  return FILE_TYPES.find(([re]) => re.test(name))?.[1] ?? 'file';
}

export function FileTypeIcon({ name }: { name: string }) {
  const type = fileTypeOf(name);
  const label = FILE_TYPES.find(([, t]) => t === type)?.[2] ?? 'FILE';
  return (
    <span
      role="img"
      aria-label={`${type} file`}
      style={{
        display: 'inline-block',
        minWidth: 34,
        padding: '1px 4px',
        borderRadius: 3,
        fontSize: 10,
        fontWeight: 600,
        textAlign: 'center',
        color: '#fff',
        background: FILE_COLORS[type],
      }}
    >
      {label}
    </span>
  );
}

/** Hides its children unless the user holds one of `roles` (or none of them, with `invert`). */
export function RoleGuard({
  roles,
  invert = false,
  children,
}: {
  roles: PortalRole[];
  invert?: boolean;
  children: ReactNode;
}) {
  return useRoleAllowed(roles, invert) ? <>{children}</> : null;
}

export function NotFoundResult() {
  return (
    <StatusPanel
      kind="notFound"
      title="Page not found"
      subTitle="The page you are looking for does not exist or has moved."
      extra={
        <FrameLinkButton variant="primary" to="/">
          Back to Home
        </FrameLinkButton>
      }
    />
  );
}

/** What a remote shows while a page's code loads (the `fallback` of a `deferred` page). */
export function PageLoading() {
  return (
    <div role="status" aria-label="Loading the page" style={{ padding: 48, textAlign: 'center' }}>
      <Spin size="large" />
    </div>
  );
}

export interface NavListItem {
  key: string;
  label: string;
  path: string;
  icon?: ReactNode;
}

/** Read by screen readers, not shown (labels, live announcements). */
export const VISUALLY_HIDDEN: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
};

/** antd's dark menu colours on the dark sider. */
const DARK = { text: 'rgba(255, 255, 255, 0.65)', hoverText: '#fff', selectedText: '#fff' };

/**
 * A navigation list (the shell's sider, the settings tabs): links, the current one marked
 * `aria-current="page"`, in the look of antd's inline menu. Site navigation is links, not an
 * application menu (`role="menu"` asks for arrow-key handling that a list of links does not have),
 * and antd's Menu would put about 20 KB gzip on every first page. `dark`: on the dark sider (antd's
 * dark menu colours). Collapsed (narrow screens), each link shows its icon and keeps its name for
 * assistive technology and as a tooltip. Put it in a `<nav>` with a name.
 */
export function NavList({
  items,
  activeKey,
  dark = false,
  collapsed = false,
}: {
  items: NavListItem[];
  activeKey: string;
  dark?: boolean;
  collapsed?: boolean;
}) {
  return (
    <ul style={{ listStyle: 'none', margin: 0, padding: '4px 0' }}>
      {items.map((item) => (
        <li key={item.key}>
          <NavListLink item={item} active={item.key === activeKey} dark={dark} collapsed={collapsed} />
        </li>
      ))}
    </ul>
  );
}

function NavListLink({
  item,
  active,
  dark,
  collapsed,
}: {
  item: NavListItem;
  active: boolean;
  dark: boolean;
  collapsed: boolean;
}) {
  const { token } = theme.useToken();
  const [hover, setHover] = useState(false);
  const color = dark
    ? active
      ? DARK.selectedText
      : hover
        ? DARK.hoverText
        : DARK.text
    : active
      ? token.colorPrimary
      : token.colorText;
  const background = active
    ? dark
      ? token.colorPrimary
      : token.controlItemBgActive
    : hover
      ? dark
        ? 'transparent'
        : token.colorBgTextHover
      : 'transparent';
  return (
    <Link
      to={item.path}
      aria-current={active ? 'page' : undefined}
      title={collapsed ? item.label : undefined}
      onMouseEnter={() => setHover(true)}
      onMouseLeave={() => setHover(false)}
      style={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: collapsed ? 'center' : 'flex-start',
        gap: token.marginSM,
        height: 40,
        margin: '4px',
        paddingInline: collapsed ? 0 : 16,
        borderRadius: token.borderRadiusLG,
        color,
        background,
        fontSize: token.fontSize,
        textDecoration: 'none',
        transition: `background ${token.motionDurationMid}, color ${token.motionDurationMid}`,
      }}
    >
      {item.icon ? (
        <span aria-hidden="true" style={{ display: 'inline-flex', fontSize: collapsed ? 16 : 14 }}>
          {item.icon}
        </span>
      ) : null}
      <span
        style={collapsed ? VISUALLY_HIDDEN : { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
      >
        {item.label}
      </span>
    </Link>
  );
}
