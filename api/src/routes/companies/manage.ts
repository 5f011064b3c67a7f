import type { FastifyInstance } from 'fastify';
import { MODULES, type ModuleName } from '@portal/shared/core/modules';
import type { Company } from '@portal/shared/core/schemas';
import { companyCreateSchema, companyModulesAccessSchema, companyUpdateSchema } from '@portal/shared/core/settings';
import {
  companyNameTaken,
  findCompanyById,
  insertCompany,
  setCompanyModulesAccess,
  updateCompany,
  type CompanyRecord,
} from '../../db/companies';
import { isUniqueViolation } from '../../db/values';
import { audit } from '../../lib/audit';
import { HttpError, nameUnknownFields, validationError } from '../../lib/http-error';
import { IMAGE_FIELD, checkImage, deleteImage, saveImage, sendImage } from '../../lib/images';
import { readForm } from '../../lib/multipart';
import { policyCompany, type Policy } from '../../plugins/policies';
import { toCompanyDto } from '.';

const editInformation: Policy = { company: 'settings', permission: 'company.editInformation' };

export const companyNameTakenError = () =>
  new HttpError(409, 'company_name_taken', undefined, [
    { field: 'name', message: 'name is already used by another company' },
  ]);

/** Runs a write that may hit the unique name index when two requests race past our own check. */
async function guardName<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw companyNameTakenError();
    throw error;
  }
}

async function companyOrThrow(app: FastifyInstance, id: string): Promise<CompanyRecord> {
  const company = await findCompanyById(app.db, id);
  if (!company) throw new HttpError(404, 'company_not_found');
  return company;
}

/** Adding companies (staff admins), their name and logo, and their module access. */
export default async function companiesManageRoutes(app: FastifyInstance) {
  const { db, config } = app;

  app.post('/api/v1/companies', { config: { policy: 'staffAdmin' } }, async (request, reply) => {
    const parsed = companyCreateSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw validationError(parsed.error, 'field');
    const { name } = parsed.data;
    const modulesAccess =
      parsed.data.modulesAccess ?? (Object.fromEntries(MODULES.map((m) => [m, true])) as Record<ModuleName, boolean>);
    const id = await guardName(() =>
      db.transaction().execute(async (trx) => {
        if (await companyNameTaken(trx, name)) throw companyNameTakenError();
        const companyId = await insertCompany(trx, { name, modulesAccess });
        await audit(
          request,
          {
            action: 'company.create',
            targetType: 'company',
            targetId: companyId,
            targetLabel: name,
            companyId,
            after: { name, modulesAccess },
          },
          trx,
        );
        return companyId;
      }),
    );
    const body: Company = toCompanyDto(await companyOrThrow(app, id));
    return reply.code(201).send(body);
  });

  /** Name (a field) and/or logo (a file): multipart from the web, JSON for the name alone. */
  app.patch('/api/v1/companies/:id', { config: { policy: editInformation } }, async (request): Promise<Company> => {
    const company = policyCompany(request);
    const form = await readForm(request, { files: { logo: IMAGE_FIELD } });
    const parsed = companyUpdateSchema.safeParse(form.fields);
    if (!parsed.success) throw validationError(parsed.error, 'field');
    const logoFile = form.files.find((f) => f.field === 'logo');
    const logoType = logoFile ? checkImage(logoFile) : null;
    const { name } = parsed.data;
    if (name === undefined && !logoFile) {
      throw new HttpError(400, 'validation_failed', 'Invalid fields: name, logo', [
        { field: 'name', message: 'send a new name, a new logo or both' },
        { field: 'logo', message: 'send a new name, a new logo or both' },
      ]);
    }
    if (name !== undefined && (await companyNameTaken(db, name, company.id))) throw companyNameTakenError();

    // The new image is in place before the row points at it; the old one goes only after the row commits.
    const newLogo = logoFile && logoType ? await saveImage(config.dataDir, logoFile.buffer, logoType) : undefined;
    const before: { name?: string; logo?: string | null } = {};
    const after: { name?: string; logo?: string | null } = {};
    let previousLogo: string | null = null;
    try {
      await guardName(() =>
        db.transaction().execute(async (trx) => {
          const current = await findCompanyById(trx, company.id);
          if (!current) throw new HttpError(404, 'company_not_found');
          previousLogo = current.logo;
          if (name !== undefined && name !== current.name) {
            before.name = current.name;
            after.name = name;
          }
          if (newLogo !== undefined) {
            before.logo = current.logo;
            after.logo = newLogo;
          }
          await updateCompany(trx, company.id, { name, logo: newLogo });
          if (Object.keys(after).length) {
            await audit(
              request,
              {
                action: 'company.update',
                targetType: 'company',
                targetId: company.id,
                targetLabel: name ?? current.name,
                companyId: company.id,
                before,
                after,
              },
              trx,
            );
          }
        }),
      );
    } catch (error) {
      if (newLogo) await deleteImage(config.dataDir, newLogo);
      throw error;
    }
    if (newLogo && previousLogo) await deleteImage(config.dataDir, previousLogo);
    return toCompanyDto(await companyOrThrow(app, company.id));
  });

  app.delete('/api/v1/companies/:id/logo', { config: { policy: editInformation } }, async (request, reply) => {
    const company = policyCompany(request);
    const removed = await db.transaction().execute(async (trx) => {
      const current = await findCompanyById(trx, company.id);
      if (!current?.logo) return null;
      await updateCompany(trx, company.id, { logo: null });
      await audit(
        request,
        {
          action: 'company.logo.delete',
          targetType: 'company',
          targetId: company.id,
          targetLabel: current.name,
          companyId: company.id,
          before: { logo: current.logo },
          after: { logo: null },
        },
        trx,
      );
      return current.logo;
    });
    if (removed) await deleteImage(config.dataDir, removed);
    return reply.code(204).send();
  });

  app.get('/api/v1/companies/:id/logo', { config: { policy: { company: 'member' } } }, async (request, reply) =>
    sendImage(reply, config.dataDir, policyCompany(request).logo),
  );

  app.patch(
    '/api/v1/companies/:id/modules-access',
    { config: { policy: { company: 'settings', permission: 'company.editModulesAccess' } } },
    async (request): Promise<Company> => {
      const company = policyCompany(request);
      const parsed = companyModulesAccessSchema.safeParse(request.body ?? {});
      if (!parsed.success) throw validationError(nameUnknownFields(parsed.error), 'field');
      await db.transaction().execute(async (trx) => {
        const current = await findCompanyById(trx, company.id);
        if (!current) throw new HttpError(404, 'company_not_found');
        const changed = MODULES.filter(
          (m) => parsed.data[m] !== undefined && parsed.data[m] !== current.modulesAccess[m],
        );
        await setCompanyModulesAccess(trx, company.id, parsed.data);
        if (changed.length) {
          await audit(
            request,
            {
              action: 'company.modules.update',
              targetType: 'company',
              targetId: company.id,
              targetLabel: current.name,
              companyId: company.id,
              before: Object.fromEntries(changed.map((m) => [m, current.modulesAccess[m]])),
              after: Object.fromEntries(changed.map((m) => [m, parsed.data[m]])),
            },
            trx,
          );
        }
      });
      return toCompanyDto(await companyOrThrow(app, company.id));
    },
  );
}
