/**
 * The users of a company (the settings' users list and the user pages): the repository. By concern:
 * list.ts (members as the users list shows them), membership.ts (creating, changing and removing
 * members) and across-companies.ts (a user's companies and project roles as a viewer sees them). This
 * file names what the rest of the api may use.
 */
export {
  accountWithinCallerCompanies,
  assignedProjectsFor,
  removeProjectRole,
  sharesCompany,
  userCompaniesFor,
  type AssignedProjectRole,
  type UserViewer,
} from './across-companies';
export {
  companyUserTeams,
  findCompanyUser,
  listCompanyUsers,
  userSignInState,
  type CompanyUserRecord,
  type CompanyUserSort,
  type CompanyUsersListQuery,
  type CompanyUserStatus,
} from './list';
export {
  createCompanyUser,
  emailTaken,
  isLeadRole,
  projectRolesInCompany,
  removeCompanyUser,
  setCompanyAccessRevoked,
  setCompanyUserRole,
  type CompanyProjectRole,
  type NewCompanyUser,
} from './membership';
