import { deferred } from '@portal/shared/web/deferred';
import { Link } from '@portal/shared/web/router';
import { Button } from '@portal/shared/ui';
import { NotFoundResult, StatusPanel } from '@portal/shared/ui/components';

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
        <Link to="/">
          <Button type="primary">Back to Home</Button>
        </Link>
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
        extra={
          <a href="/auth/saml/login">
            <Button>Sign in with another account</Button>
          </a>
        }
      />
    </div>
  );
}
