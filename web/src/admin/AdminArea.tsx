import { ADMIN_ROUTES, can, INSIGHT_PATHS, RETENTION_PATHS, targetAfterLogin } from '@wbs/shared';
import { type ReactNode, Suspense } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { forcedPasswordChange, useSession } from '../api/session.ts';
import { subjectOf } from '../api/types.ts';
import { DashboardPage } from '../dashboard/DashboardPage.tsx';
// Part of this chunk like the dashboard (their map and charts load on demand, ProvinceMap and
// BarChart): as chunks of their own they split the modules they share with it into more files of
// the initial load.
import MapsPage from '../insights/MapsPage.tsx';
import StatisticsPage from '../insights/StatisticsPage.tsx';
import { ErrorBoundary } from '../ui/ErrorBoundary.tsx';
import { lazyWithRetry as lazy } from '../ui/lazyWithRetry.tsx';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { AdminLayout } from './AdminLayout.tsx';
import { CategoryPage } from './CategoryPage.tsx';
import { CaseListPage } from './cases/CaseListPage.tsx';
import { HandlingDeadlinesPage } from './HandlingDeadlinesPage.tsx';
import { CompanyPage, PartnerPage } from './OrganisationPages.tsx';
import { ProfilePage } from './ProfilePage.tsx';
import { OverdueDisposalBanner } from './retention/OverdueDisposalBanner.tsx';
import { AnalystPage, PartnerStaffPage } from './StaffPages.tsx';
import { StatusListPage } from './StatusListPage.tsx';

// Screens few users open load on demand: the admin area's own chunk stays as it was.
const NoticePreferencesPage = lazy(() => import('./NoticePreferencesPage.tsx'));
const DeadLettersPage = lazy(() => import('./DeadLettersPage.tsx'));
const SecurityPage = lazy(() => import('../second-factor/SecurityPage.tsx'));
const RetentionPeriodsPage = lazy(() => import('./retention/RetentionPeriodsPage.tsx'));
const DisposalRegisterPage = lazy(() => import('./retention/DisposalRegisterPage.tsx'));
const ProcessingRecordsPage = lazy(() => import('./retention/ProcessingRecordsPage.tsx'));

/** Paths of the retention and insight screens under the /admin nest. */
const nested = (path: string) => path.slice('/admin'.length);

/** A lazily loaded screen inside the layout: a spinner while it loads, Coba lagi if it cannot. */
const onDemand = (node: ReactNode) => (
  <ErrorBoundary>
    <Suspense fallback={<PageSpinner />}>{node}</Suspense>
  </ErrorBoundary>
);

/**
 * Paths every signed-in user may open under /admin (spec: dashboard and maps), each behind its
 * permission: types without it (1 has no dashboard; 6 neither) go to their landing target.
 */
const COMMON = { '/admin/dashboard': 'dashboard:read', [INSIGHT_PATHS.maps]: 'insights:read' } as const;

/**
 * /admin (nested routes): sign-in required; each user type reaches only its own routes
 * (shared ADMIN_ROUTES) and is sent to its landing target otherwise.
 */
export default function AdminArea() {
  const { user, loading } = useSession();
  const [location] = useLocation(); // relative to /admin
  if (loading) return <PageSpinner />;
  // Spec §2: a user whose initial password must change is sent from /admin to the change screen.
  if (!user)
    return <Redirect to={forcedPasswordChange.get() ? '~/user/changepassword' : '~/auth/login'} replace />;
  const full = `/admin${location === '/' ? '' : location}`;
  const target = targetAfterLogin(user.userTypeId);
  const allowed = [...Object.keys(COMMON), ...ADMIN_ROUTES[user.userTypeId]];
  const common = Object.entries(COMMON).find(([path]) => full === path);
  // Without the screen's permission (type 1 has no dashboard, 6 neither screen): the landing target.
  if (full === '/admin' || (common && !can(subjectOf(user), common[1]))) {
    return <Redirect to={`~${target}`} replace />;
  }
  if (!allowed.some((path) => full === path || full.startsWith(`${path}/`))) {
    return <Redirect to={`~${target}`} replace />;
  }
  return (
    <AdminLayout user={user}>
      {full === target && can(subjectOf(user), 'disposals:read') && <OverdueDisposalBanner />}
      <Switch>
        <Route path="/case" nest>
          <CaseListPage user={user} />
        </Route>
        <Route path="/dashboard">
          <DashboardPage user={user} />
        </Route>
        <Route path={nested(INSIGHT_PATHS.maps)}>
          <MapsPage user={user} />
        </Route>
        <Route path={nested(INSIGHT_PATHS.statistics)}>
          <StatisticsPage user={user} />
        </Route>
        <Route path="/partner">
          <PartnerPage />
        </Route>
        <Route path="/company">
          <CompanyPage />
        </Route>
        <Route path="/statuscase">
          <StatusListPage />
        </Route>
        <Route path="/supportagent">
          <AnalystPage />
        </Route>
        <Route path="/partnerstaff">
          <PartnerStaffPage />
        </Route>
        <Route path="/categorycase">
          <CategoryPage />
        </Route>
        <Route path="/deadlines">
          <HandlingDeadlinesPage user={user} />
        </Route>
        <Route path="/profile">
          <ProfilePage user={user} />
        </Route>
        <Route path="/notifikasi">{onDemand(<NoticePreferencesPage />)}</Route>
        <Route path="/surel-gagal">{onDemand(<DeadLettersPage />)}</Route>
        <Route path="/keamanan">{onDemand(<SecurityPage />)}</Route>
        <Route path={nested(RETENTION_PATHS.periods)}>{onDemand(<RetentionPeriodsPage />)}</Route>
        <Route path={nested(RETENTION_PATHS.register)}>{onDemand(<DisposalRegisterPage />)}</Route>
        <Route path={nested(RETENTION_PATHS.records)}>{onDemand(<ProcessingRecordsPage />)}</Route>
        <Route>
          <Redirect to={`~${target}`} replace />
        </Route>
      </Switch>
    </AdminLayout>
  );
}
