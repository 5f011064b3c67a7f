/**
 * The signed-in user's own settings: profile (with avatar) and password. Profile changes invalidate
 * `User`; the shell's header reads the session's user, which the shell loads without a subscription,
 * so the updated user (the api's reply, else read again) is also put in the session and the cache:
 * the header's name and avatar follow at once.
 */
import { userSchema, type ChangePasswordBody, type User } from '@portal/shared/core/schemas';
import { sessionActions } from '@portal/shared/web/session';
import { settingsApi } from '../../../app/settings-api';

type Dispatch = (action: unknown) => unknown;

async function followProfileChange(dispatch: Dispatch, queryFulfilled: Promise<{ data: unknown }>) {
  let reply: unknown;
  try {
    ({ data: reply } = await queryFulfilled);
  } catch {
    return;
  }
  const parsed = userSchema.safeParse(reply);
  const user: User | undefined = parsed.success
    ? parsed.data
    : (
        (await dispatch(
          settingsApi.endpoints.usersMe.initiate(undefined, { subscribe: false, forceRefetch: true }),
        )) as { data?: User }
      ).data;
  if (!user) return;
  dispatch(sessionActions.userLoaded(user));
  dispatch(settingsApi.util.upsertQueryData('usersMe', undefined, user));
}

export const personalApi = settingsApi.injectEndpoints({
  endpoints: (build) => ({
    /** PUT /users/profile/me, multipart: the editable profile fields and an optional `avatar` file. */
    settingsProfileUpdate: build.mutation<unknown, FormData>({
      query: (body) => ({ url: '/users/profile/me', method: 'PUT', body }),
      invalidatesTags: ['User'],
      onQueryStarted: (_arg, { dispatch, queryFulfilled }) => followProfileChange(dispatch as Dispatch, queryFulfilled),
    }),
    settingsProfileAvatarDelete: build.mutation<unknown, void>({
      query: () => ({ url: '/users/profile/me/avatar', method: 'DELETE' }),
      invalidatesTags: ['User'],
      onQueryStarted: (_arg, { dispatch, queryFulfilled }) => followProfileChange(dispatch as Dispatch, queryFulfilled),
    }),
    /** The server ends the user's other sessions and gives this browser a new one (204). */
    settingsPasswordChange: build.mutation<void, ChangePasswordBody>({
      query: (body) => ({ url: '/users/profile/me/password', method: 'POST', body }),
    }),
  }),
});

export const {
  useSettingsProfileUpdateMutation,
  useSettingsProfileAvatarDeleteMutation,
  useSettingsPasswordChangeMutation,
} = personalApi;
