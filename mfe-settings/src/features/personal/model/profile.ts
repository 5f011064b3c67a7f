import { profileEditableFields, type ProfileUpdate } from '@portal/shared/core/settings';
import type { User } from '@portal/shared/core/schemas';

export interface ProfileFormValues {
  firstName: string;
  lastName: string;
  title: string | null;
  primaryPhone: string | null;
  sendDailyEmails: boolean;
  avatar?: File;
}

export function profileFormValues(user: User): ProfileFormValues {
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    title: user.title,
    primaryPhone: user.primaryPhone,
    sendDailyEmails: user.sendDailyEmails,
  };
}

/**
 * The multipart body of PUT /users/profile/me: the user with the form's changes, narrowed to the
 * editable fields (server-managed fields are dropped before sending). Multipart
 * fields are texts: booleans as "true"/"false", no value as "" (the api reads "" as none).
 */
export function profileFormData(user: User, values: ProfileFormValues): FormData {
  const { avatar, ...fields } = values;
  const editable = profileEditableFields({ ...user, ...fields }) as Partial<ProfileUpdate>;
  const body = new FormData();
  for (const [key, value] of Object.entries(editable)) {
    body.append(key, value === null || value === undefined ? '' : String(value));
  }
  if (avatar) body.append('avatar', avatar, avatar.name);
  return body;
}
