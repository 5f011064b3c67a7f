import { Subject } from 'rxjs';
import { suppressDuplicates, toastKey, type ToastMessage } from './events';
import { serializeParams } from './api';

describe('suppressDuplicates', () => {
  it('lets an identical toast through once per 5 s window, and distinct ones always', () => {
    let now = 0;
    const source = new Subject<ToastMessage>();
    const seen: string[] = [];
    source.pipe(suppressDuplicates(5000, toastKey, () => now)).subscribe((t) => seen.push(t.summary));
    const tooMany: ToastMessage = { severity: 'warn', summary: 'Too Many Requests', detail: 'wait' };
    source.next(tooMany);
    now = 1000;
    source.next(tooMany);
    source.next({ severity: 'error', summary: 'Not found error' });
    now = 4999;
    source.next(tooMany);
    expect(seen).toEqual(['Too Many Requests', 'Not found error']);
    now = 5000;
    source.next(tooMany);
    expect(seen).toEqual(['Too Many Requests', 'Not found error', 'Too Many Requests']);
  });
});

describe('serializeParams', () => {
  it('encodes arrays as key[]=value and drops empty values', () => {
    expect(serializeParams({ status: ['OPEN', 'IN PROGRESS'], page: 2, q: undefined, x: null })).toBe(
      'status%5B%5D=OPEN&status%5B%5D=IN%20PROGRESS&page=2',
    );
  });
});
