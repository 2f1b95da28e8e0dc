import type { DataSource, SelectQueryBuilder } from 'typeorm';
import { Brackets } from 'typeorm';
import { containsPattern, foldText } from '../shared/fold.ts';
import { CustomerEntity, type CustomerRow } from './entity.ts';

/** Which customers a caller sees: its organisation's, narrowed to one company plus organisation-wide ones. */
export interface CustomerScope {
  organisationId: string;
  /** null for the unscoped routes: the whole organisation */
  companyId: string | null;
}

export const CUSTOMER_SORT_COLUMNS = ['name', 'vat_id', 'created_at', 'updated_at'] as const;
type SortColumn = (typeof CUSTOMER_SORT_COLUMNS)[number];
const sortExpression: Record<SortColumn, string> = {
  name: 'c.name_folded',
  vat_id: 'c.vat_id',
  created_at: 'c.created_at',
  updated_at: 'c.updated_at',
};

function scoped(db: DataSource, scope: CustomerScope): SelectQueryBuilder<CustomerRow> {
  const query = db.getRepository(CustomerEntity).createQueryBuilder('c').where('c.organisation_id = :org', { org: scope.organisationId });
  if (scope.companyId) query.andWhere('(c.company_id = :company OR c.company_id IS NULL)', { company: scope.companyId });
  return query;
}

export async function listCustomers(
  db: DataSource,
  scope: CustomerScope,
  options: { page: number; pageSize: number; q?: string; sort?: string },
): Promise<{ items: CustomerRow[]; total: number }> {
  const query = scoped(db, scope);
  if (options.q) {
    const folded = containsPattern(foldText(options.q));
    const vat = containsPattern(options.q.replace(/\s+/g, '').toUpperCase());
    query.andWhere(new Brackets((w) => w.where('c.name_folded LIKE :folded', { folded }).orWhere('c.vat_id LIKE :vat', { vat })));
  }
  const sort = (options.sort ?? 'name').split(',').filter(Boolean);
  for (const key of sort) {
    const column = key.replace(/^-/, '') as SortColumn;
    query.addOrderBy(sortExpression[column], key.startsWith('-') ? 'DESC' : 'ASC');
  }
  query.addOrderBy('c.id', 'ASC'); // a stable order across pages
  const [items, total] = await query
    .skip((options.page - 1) * options.pageSize)
    .take(options.pageSize)
    .getManyAndCount();
  return { items, total };
}

/** Up to 10 active customers matching a VAT ID, IČO or name fragment, exact identifier matches first. */
export async function searchCustomers(db: DataSource, scope: CustomerScope, q: string): Promise<CustomerRow[]> {
  const compact = q.replace(/\s+/g, '').toUpperCase();
  return scoped(db, scope)
    .andWhere('c.is_active = true')
    .andWhere(
      new Brackets((w) =>
        w
          .where('c.name_folded LIKE :folded', { folded: containsPattern(foldText(q.trim())) })
          .orWhere('c.vat_id LIKE :vat', { vat: containsPattern(compact) })
          .orWhere('c.ico LIKE :ico', { ico: containsPattern(compact) }),
      ),
    )
    .orderBy('CASE WHEN c.vat_id = :exact OR c.ico = :exact THEN 0 ELSE 1 END', 'ASC')
    .setParameter('exact', compact)
    .addOrderBy('c.name_folded', 'ASC')
    .addOrderBy('c.id', 'ASC')
    .take(10)
    .getMany();
}

export async function getCustomer(db: DataSource, scope: CustomerScope, id: string): Promise<CustomerRow | null> {
  return scoped(db, scope).andWhere('c.id = :id', { id }).getOne();
}
