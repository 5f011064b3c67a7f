import { deferred } from '@portal/shared/web/deferred';
import { FrameLinkButton, NotFoundResult, StatusPanel } from '@portal/shared/ui/components';

/** Home when the projects module is off: loaded on demand, it uses the extra UI kit. */
export const ModulesHome = deferred(() => import('./modules-home'));

export function NotFoundPage() {
  return <NotFoundResult />;
}

export function NoModuleAccess({ module }: { module: string }) {
  return (
    <StatusPanel
      kind="forbidden"
      title={`You do not have access to ${module}`}
      subTitle="Module access for this company does not include it. Ask your company administrator if you need it."
      extra={
        <FrameLinkButton variant="primary" to="/">
          Back to Home
        </FrameLinkButton>
      }
    />
  );
}

/** Public page shown after an account is removed. */
export function AccountRemovedPage() {
  return (
    <div style={{ display: 'flex', minHeight: '100vh', alignItems: 'center', justifyContent: 'center' }}>
      <StatusPanel
        kind="notFound"
        title="Your account has been removed"
        subTitle="You no longer have access to the portal. If you think this is a mistake, contact your administrator."
        extra={<FrameLinkButton href="/auth/saml/login">Sign in with another account</FrameLinkButton>}
      />
    </div>
  );
}
