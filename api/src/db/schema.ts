import type { ColumnType, Generated } from 'kysely';

/**
 * Row types of the tables (see migrations/). Booleans come back as 0/1 on SQLite and
 * timestamps as Date on PostgreSQL: repositories normalise them (Boolean(), toIso()).
 */
type Bool = ColumnType<boolean | number, boolean, boolean>;
type Timestamp = ColumnType<Date | string, string, string>;
type NullableBool = ColumnType<boolean | number | null, boolean | null, boolean | null>;

export interface UsersTable {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  title: string | null;
  primary_phone: string | null;
  avatar: string | null;
  password_hash: string | null;
  status: 'active' | 'suspended';
  is_tevora: Bool;
  is_auditor: Bool;
  is_admin: Bool;
  send_daily_emails: Bool;
  is_federated: Bool;
  first_login: Bool;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CompaniesTable {
  id: string;
  name: string;
  logo: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CompanyModulesAccessTable {
  company_id: string;
  module: string;
  enabled: Bool;
}

export interface CompanyMembershipsTable {
  company_id: string;
  user_id: string;
  role: 'admin' | 'member';
  created_at: Timestamp;
}

export interface TeamsTable {
  id: string;
  company_id: string;
  name: string;
  created_at: Timestamp;
}

export interface TeamMembersTable {
  team_id: string;
  user_id: string;
}

export interface UserModulesAccessTable {
  company_id: string;
  user_id: string;
  module: string;
  enabled: NullableBool;
}

export interface TeamModulesAccessTable {
  company_id: string;
  team_id: string;
  module: string;
  enabled: NullableBool;
}

export interface SessionsTable {
  id: string;
  token_hash: string;
  user_id: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  user_agent: string | null;
}

export interface Database {
  users: UsersTable;
  companies: CompaniesTable;
  company_modules_access: CompanyModulesAccessTable;
  company_memberships: CompanyMembershipsTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  user_modules_access: UserModulesAccessTable;
  team_modules_access: TeamModulesAccessTable;
  sessions: SessionsTable;
}

export type { Generated };
