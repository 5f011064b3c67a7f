import { makeFolder } from '../testing/files-fixtures';
import { childrenOf, folderPath, folderTree, isWithin, rootOf } from './folder-tree';

const folders = [
  makeFolder('r', 'p1', null),
  makeFolder('b', 'beta', 'r'),
  makeFolder('a', 'Alpha', 'r'),
  makeFolder('c', 'child', 'a'),
  makeFolder('g', 'grandchild', 'c'),
];

describe('folder tree', () => {
  it('finds the root, a folder’s children by name and the path down to it', () => {
    expect(rootOf(folders)?.id).toBe('r');
    expect(childrenOf(folders, 'r').map((f) => f.name)).toEqual(['Alpha', 'beta']);
    expect(folderPath(folders, 'g').map((f) => f.id)).toEqual(['r', 'a', 'c', 'g']);
    expect(folderPath(folders, 'nope')).toEqual([]);
  });

  it('knows what lies inside a folder', () => {
    expect(isWithin(folders, 'g', 'a')).toBe(true);
    expect(isWithin(folders, 'a', 'a')).toBe(true);
    expect(isWithin(folders, 'b', 'a')).toBe(false);
  });

  it('offers every folder in the picker, the root as Files, marking what the note names', () => {
    const tree = folderTree(folders, (f) => (isWithin(folders, f.id, 'a') ? 'inside Alpha' : null));
    expect(tree).toEqual([
      {
        value: 'r',
        title: 'Files',
        children: [
          {
            value: 'a',
            title: 'Alpha (inside Alpha)',
            children: [
              {
                value: 'c',
                title: 'child (inside Alpha)',
                children: [{ value: 'g', title: 'grandchild (inside Alpha)', children: [] }],
              },
            ],
          },
          { value: 'b', title: 'beta', children: [] },
        ],
      },
    ]);
  });
});
