/** How the detail page names people: a deleted account (null) is "Former user". */
import type { RequestUserRef } from '@portal/shared/core/requests';
import { personName as nameOf } from '../../../app/labels';

export function personName(user: RequestUserRef | null): string {
  return user ? nameOf(user) : 'Former user';
}
