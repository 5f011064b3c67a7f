import { type ComponentType } from 'react';
import { moduleLoader } from '@portal/shared/web/deferred';
import { useLoadedAfterFirstContent } from '../../../app/after-first-content';

/**
 * The banner's settings call and, when there is a banner, its code: they load once the first page's
 * content is on screen, since the page does not wait for the banner (bench/bundle counts what loads
 * before).
 */
const bannerSource = moduleLoader<ComponentType>(() => import('./maintenance-banner-source').then((m) => m.default));

/** Where the frame shows the maintenance banner: nothing at all unless one is active for this user. */
export function MaintenanceBannerSlot() {
  const [BannerSource] = useLoadedAfterFirstContent(bannerSource, 'The maintenance banner');
  return BannerSource ? <BannerSource /> : null;
}
