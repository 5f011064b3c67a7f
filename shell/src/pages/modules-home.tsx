import { useSelector } from '@portal/shared/web/store';
import { Card, Col, Empty, Row } from '@portal/shared/ui/extra';
import { PageHeader } from '@portal/shared/ui/components';
import { Link } from '@portal/shared/web/router';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';
import { navigationFor } from '../app/navigation';
import { usePortalRemotes } from '../app/routes';

type Root = { session: SessionState };

/** Home when the projects module is off: the modules the user has (loaded on demand). */
export default function ModulesHome() {
  const access = useSelector((s: Root) => sessionSelectors.selectAccess(s));
  const user = useSelector((s: Root) => sessionSelectors.selectUser(s));
  const items = navigationFor(usePortalRemotes() ?? [], access?.modulesAccess ?? null);
  return (
    <div data-testid="modules-home">
      <PageHeader title="Home" />
      <p>Welcome{user ? `, ${user.firstName}` : ''}. These are the modules you can use in this company.</p>
      {items.length ? (
        <Row gutter={[16, 16]}>
          {items.map((i) => (
            <Col key={i.key} xs={24} sm={12} lg={6}>
              <Link to={i.path}>
                <Card hoverable title={i.label}>
                  Open {i.label}
                </Card>
              </Link>
            </Col>
          ))}
        </Row>
      ) : (
        <Empty description="No modules are available to you in this company." />
      )}
    </div>
  );
}
