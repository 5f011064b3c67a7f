import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Updateable } from 'kysely';
import * as api from '@portal/shared/core/users/api';
import { sharesCompany } from '../../../../db/company-users';
import { projectRolesOf } from '../../../../db/projects';
import type { UsersTable } from '../../../../db/schema';
import { findUserById, type UserRecord } from '../../../../db/users';
import { nowIso } from '../../../../db/values';
import { audit } from '../../../../lib/audit';
import { HttpError } from '../../../../lib/http-error';
import { IMAGE_FIELD, checkImage, deleteImage, saveImage, sendImage } from '../../../../lib/images';
import { readForm, type UploadedFile } from '../../../../lib/multipart';
import { signsInWithSso } from '../../../../lib/password-reset';
import { requireAuth } from '../../../../plugins/app/auth';
import { route } from '../../../../lib/contract';
import { toUserDto } from '../../../../modules/users/user-dto';

type ProfileColumn = 'first_name' | 'last_name' | 'title' | 'primary_phone' | 'send_daily_emails' | 'avatar';
type ProfileChange = Pick<Updateable<UsersTable>, ProfileColumn>;

const FIELD_OF: Record<ProfileColumn, keyof UserRecord> = {
  first_name: 'firstName',
  last_name: 'lastName',
  title: 'title',
  primary_phone: 'primaryPhone',
  send_daily_emails: 'sendDailyEmails',
  avatar: 'avatar',
};

/**
 * The changed fields only, as the audit log keeps them (never anything about passwords), and the
 * columns to write.
 */
function diff(user: UserRecord, wanted: ProfileChange) {
  const set: ProfileChange = {};
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(wanted) as [ProfileColumn, string | boolean | null][]) {
    const field = FIELD_OF[column];
    if (value === undefined || user[field] === value) continue;
    (set as Record<string, unknown>)[column] = value;
    before[field] = user[field];
    after[field] = value;
  }
  return { set, before, after, changed: Object.keys(set).length > 0 };
}

/** The signed-in user's own profile and avatar. */
export default async function usersProfileRoutes(app: FastifyInstance) {
  const { db, config } = app;

  async function reply(userId: string) {
    const user = await findUserById(db, userId);
    if (!user) throw new HttpError(404, 'user_not_found');
    return toUserDto(user, config.flagHmacSecret, await projectRolesOf(db, user.id));
  }

  /** Writes the change and its audit record together; an image written for it is removed if that fails. */
  async function applyChange(
    request: FastifyRequest,
    user: UserRecord,
    wanted: ProfileChange,
    newImage: string | null,
  ) {
    const { set, before, after, changed } = diff(user, wanted);
    if (!changed) return;
    try {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({ ...set, updated_at: nowIso() })
          .where('id', '=', user.id)
          .execute();
        await audit(
          request,
          { action: 'profile.update', targetType: 'user', targetId: user.id, targetLabel: user.email, before, after },
          trx,
        );
      });
    } catch (error) {
      await deleteImage(config.dataDir, newImage);
      throw error;
    }
    if ('avatar' in set) await deleteImage(config.dataDir, user.avatar);
  }

  /** The avatar sent with a PUT, read with the rest of the form before the fields are validated. */
  const avatars = new WeakMap<FastifyRequest, UploadedFile>();

  route(
    app,
    api.updateProfile,
    async (request) => {
      const { user } = await requireAuth(request);
      const avatarFile = avatars.get(request);
      const imageType = avatarFile ? checkImage(avatarFile) : null;
      const { firstName, lastName, title, primaryPhone, sendDailyEmails } = request.body;
      const newImage = avatarFile && imageType ? await saveImage(config.dataDir, avatarFile.buffer, imageType) : null;
      await applyChange(
        request,
        user,
        {
          first_name: firstName,
          last_name: lastName,
          title,
          primary_phone: primaryPhone,
          ...(sendDailyEmails === undefined ? {} : { send_daily_emails: sendDailyEmails }),
          ...(newImage ? { avatar: newImage } : {}),
        },
        newImage,
      );
      return reply(user.id);
    },
    {
      // Single sign-on users are refused before anything is read. The form (JSON, or multipart with the
      // `avatar` file) is read here, so its text fields meet the body schema whichever way they came.
      preValidation: async (request) => {
        const { user } = await requireAuth(request);
        if (await signsInWithSso(db, user)) {
          throw new HttpError(
            403,
            'federated_user',
            "Your profile comes from your company's single sign-on: use your company's single sign-on to change it.",
          );
        }
        const form = await readForm(request, { files: { avatar: IMAGE_FIELD } });
        request.body = form.fields;
        const avatar = form.files.find((f) => f.field === 'avatar');
        if (avatar) avatars.set(request, avatar);
      },
    },
  );

  route(app, api.deleteProfileAvatar, async (request) => {
    const { user } = await requireAuth(request);
    await applyChange(request, user, { avatar: null }, null);
    return reply(user.id);
  });

  /** Not found unless the caller is staff, is the user, or shares a company with them (users are not revealed). */
  route(app, api.getUserAvatar, async (request, res) => {
    const { user: caller } = await requireAuth(request);
    const { id } = request.params;
    const target = await findUserById(db, id);
    const visible =
      target !== null &&
      (caller.isTevora || caller.id === target.id || (await sharesCompany(db, caller.id, target.id)));
    if (!target || !visible) throw new HttpError(404, 'user_not_found');
    return sendImage(res, config.dataDir, target.avatar);
  });
}
