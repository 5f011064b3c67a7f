/**
 * The rows a list query asks for (`page`, `pageSize`, or every row with `ignorePagination`) and the
 * paging fields of its reply: with `ignorePagination` the reply is one page holding all `total` rows.
 */
export function pageWindow(query: { page: number; pageSize: number; ignorePagination: boolean }) {
  const { page, pageSize, ignorePagination } = query;
  return {
    /** null: all rows (offset is then 0). */
    limit: ignorePagination ? null : pageSize,
    offset: ignorePagination ? 0 : (page - 1) * pageSize,
    reply<T>(results: T[], total: number) {
      return { results, total, page: ignorePagination ? 1 : page, pageSize: ignorePagination ? total : pageSize };
    },
  };
}
