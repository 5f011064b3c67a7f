import { filesListState, filesQuery, openFolderChanges } from './files-address';

describe('files address', () => {
  it('reads the folder, page, view, sort and search, with defaults for what is missing or wrong', () => {
    expect(
      filesListState(
        new URLSearchParams('folderId=f1&filesPage=3&filesView=grid&filesSort=-size&filesSearch=%20plan%20'),
      ),
    ).toEqual({
      folderId: 'f1',
      page: 3,
      view: 'grid',
      sort: '-size',
      search: 'plan',
    });
    expect(filesListState(new URLSearchParams('filesPage=0&filesView=table&filesSort=owner'))).toEqual({
      folderId: null,
      page: 1,
      view: 'list',
      sort: 'name',
      search: null,
    });
  });

  it('asks for the root when no folder is addressed', () => {
    expect(filesQuery(filesListState(new URLSearchParams('')))).toEqual({ page: 1, pageSize: 25, sort: 'name' });
    expect(filesQuery(filesListState(new URLSearchParams('folderId=f1&filesSearch=x')))).toEqual({
      page: 1,
      pageSize: 25,
      sort: 'name',
      folderId: 'f1',
      search: 'x',
    });
  });

  it('opens a folder at its first page; the root leaves folderId out', () => {
    expect(openFolderChanges('f1', 'root')).toEqual({ folderId: 'f1', filesPage: null, filesSearch: null });
    expect(openFolderChanges('root', 'root')).toEqual({ folderId: null, filesPage: null, filesSearch: null });
  });
});
