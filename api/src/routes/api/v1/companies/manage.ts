import type { FastifyInstance } from 'fastify';
import * as api from '@portal/shared/core/companies/api';
import { MODULES, type ModuleName } from '@portal/shared/core/modules';
import {
  companyNameTaken,
  findCompanyById,
  insertCompany,
  setCompanyModulesAccess,
  updateCompany,
  type CompanyRecord,
} from '../../../../db/companies';
import { isUniqueViolation } from '../../../../db/values';
import { audit } from '../../../../lib/audit';
import { checkFormFields } from '../../../../lib/form-fields';
import { HttpError } from '../../../../lib/http-error';
import { IMAGE_FIELD, checkImage, deleteImage, saveImage, sendImage } from '../../../../lib/images';
import { readForm } from '../../../../lib/multipart';
import { route } from '../../../../lib/contract';
import { policyCompany } from '../../../../plugins/app/policies';
import { toCompanyDto } from '../../../../modules/companies/company-dto';

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

  route(app, api.createCompany, async (request, reply) => {
    const { name } = request.body;
    const modulesAccess =
      request.body.modulesAccess ?? (Object.fromEntries(MODULES.map((m) => [m, true])) as Record<ModuleName, boolean>);
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
    return reply.code(201).send(toCompanyDto(await companyOrThrow(app, id)));
  });

  /** Name (a field) and/or logo (a file): multipart from the web, JSON for the name alone (checked by fastify). */
  route(app, api.updateCompany, async (request) => {
    const company = policyCompany(request);
    const form = await readForm(request, { files: { logo: IMAGE_FIELD } });
    const { name } = request.isMultipart() ? checkFormFields(api.updateCompany.form.fields, form.fields) : request.body;
    const logoFile = form.files.find((f) => f.field === 'logo');
    const logoType = logoFile ? checkImage(logoFile) : null;
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

  route(app, api.deleteCompanyLogo, async (request, reply) => {
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

  route(app, api.getCompanyLogo, async (request, reply) =>
    sendImage(reply, config.dataDir, policyCompany(request).logo),
  );

  route(app, api.updateCompanyModulesAccess, async (request) => {
    const company = policyCompany(request);
    const access = request.body;
    await db.transaction().execute(async (trx) => {
      const current = await findCompanyById(trx, company.id);
      if (!current) throw new HttpError(404, 'company_not_found');
      const changed = MODULES.filter((m) => access[m] !== undefined && access[m] !== current.modulesAccess[m]);
      await setCompanyModulesAccess(trx, company.id, access);
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
            after: Object.fromEntries(changed.map((m) => [m, access[m]])),
          },
          trx,
        );
      }
    });
    return toCompanyDto(await companyOrThrow(app, company.id));
  });
}
