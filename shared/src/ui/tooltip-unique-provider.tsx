/**
 * What antd's ConfigProvider gets when it imports its tooltip UniqueProvider (the webpack builds
 * swap the import, see shared/federation/webpack-base.js).
 *
 * ConfigProvider renders that provider only with `tooltip={{ unique: true }}`, which the portal does
 * not set, yet importing it puts `@rc-component/trigger` with its portal and resize observer (about
 * 8 KB gzip) on the first page. Here it loads the first time it is rendered; until then nothing below
 * it renders, so no tooltip can start without it. Tooltips themselves bring the trigger with the
 * kit that holds them.
 */
import { lazy, Suspense, type ReactNode } from 'react';

const AntdUniqueProvider = lazy(() => import('antd/es/tooltip/UniqueProvider'));

export default function TooltipUniqueProvider({ children }: { children?: ReactNode }) {
  return (
    <Suspense fallback={null}>
      <AntdUniqueProvider>{children}</AntdUniqueProvider>
    </Suspense>
  );
}
