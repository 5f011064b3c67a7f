import { deferred } from '@portal/shared/web/deferred';
import {
  BANNER_SETTINGS,
  useSystemSettingsDismissMutation,
  useSystemSettingsListQuery,
} from '../api/system-settings-api';
import { visibleBanner } from '../model/banner';

// The banner's code, DOMPurify and the Alert load only when there is a banner to show.
const MaintenanceBanner = deferred(() => import('./maintenance-banner'));

/** The active banner for this user from the settings, or nothing. */
export default function MaintenanceBannerSource() {
  const { data } = useSystemSettingsListQuery(BANNER_SETTINGS);
  const [dismiss] = useSystemSettingsDismissMutation();
  const banner = visibleBanner(data);
  if (!banner) return null;
  return <MaintenanceBanner banner={banner} onClose={() => void dismiss({ id: banner.id, version: banner.version })} />;
}
