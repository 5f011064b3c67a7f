import { afterFirstContent, markFirstContentShown } from './first-content';

describe('afterFirstContent', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('waits for the first content, then the settle time, then idle; a cancel before then stops it', () => {
    const settled = jest.fn();
    const cancelled = jest.fn();
    afterFirstContent(settled, 2000);
    const cancel = afterFirstContent(cancelled, 2000);
    jest.advanceTimersByTime(500);
    expect(settled).not.toHaveBeenCalled();

    markFirstContentShown();
    jest.advanceTimersByTime(1999);
    expect(settled).not.toHaveBeenCalled();
    cancel();
    jest.advanceTimersByTime(100);
    expect(settled).toHaveBeenCalledTimes(1);
    expect(cancelled).not.toHaveBeenCalled();

    // once the content is shown, later callers without a settle time run at the next idle moment
    const later = jest.fn();
    afterFirstContent(later);
    jest.advanceTimersByTime(10);
    expect(later).toHaveBeenCalledTimes(1);
  });
});
