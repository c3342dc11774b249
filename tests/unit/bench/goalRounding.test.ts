import { describe, expect, it } from 'vitest';
import { meets, parseGoal, roundForGoal } from '../../bench/common';

// A bench line prints a rounded figure beside `met`: the figure must never read as met when
// `met` is false, nor as missed when it is met.
describe('a bench figure is printed with the precision its goal needs', () => {
  it('reads goals at most and at least, with or without a unit', () => {
    expect(parseGoal('<= 1.2x')).toEqual({ atMost: true, limit: 1.2 });
    expect(parseGoal('>= 3x')).toEqual({ atMost: false, limit: 3 });
    expect(parseGoal('<= 0.3 s')).toEqual({ atMost: true, limit: 0.3 });
    expect(parseGoal('<= 2')).toEqual({ atMost: true, limit: 2 });
    expect(() => parseGoal('none (informational)')).toThrow(/<= N unit/);
    expect(() => parseGoal('< 5 ms')).toThrow(/< 5 ms/);
  });

  it('keeps the usual digits when they read the same verdict', () => {
    expect(roundForGoal(1.1449, parseGoal('<= 1.2x'))).toBe(1.14);
    expect(roundForGoal(1.3551, parseGoal('<= 1.2x'))).toBe(1.36);
    expect(roundForGoal(0.70049, parseGoal('<= 1 ms'), 3)).toBe(0.7);
    expect(roundForGoal(26.31, parseGoal('>= 3x'))).toBe(26.31);
  });

  it('adds digits where rounding would reach the limit from the missed side', () => {
    // 1.2049 is not <= 1.2, but round(…, 2) is 1.2.
    expect(meets(1.2049, parseGoal('<= 1.2x'))).toBe(false);
    expect(roundForGoal(1.2049, parseGoal('<= 1.2x'))).toBe(1.205);
    // The first number of digits whose rounding is past the limit: 1.200001, not 1.2.
    expect(roundForGoal(1.20000071, parseGoal('<= 1.2x'))).toBe(1.200001);
    expect(roundForGoal(2.99951, parseGoal('>= 3x'))).toBe(2.9995);
    expect(roundForGoal(200.04, parseGoal('<= 200 MB'), 1)).toBe(200.04);
  });

  it('adds digits where rounding would cross a limit finer than the digits from the met side', () => {
    // 0.245 is met against "<= 0.245 s"; 0.2450 to two digits is 0.25, which would read as missed.
    expect(roundForGoal(0.245, parseGoal('<= 0.245 s'))).toBe(0.245);
    expect(roundForGoal(0.2449, parseGoal('<= 0.245 s'))).toBe(0.24);
    expect(roundForGoal(0.2451, parseGoal('<= 0.245 s'))).toBe(0.25); // missed, and reads so
    expect(meets(0.245, parseGoal('<= 0.245 s'))).toBe(true);
  });

  it('prints a value on the limit as the limit, and one a hair past it in full', () => {
    expect(roundForGoal(1.2, parseGoal('<= 1.2x'))).toBe(1.2);
    expect(roundForGoal(3, parseGoal('>= 3x'))).toBe(3);
    const hair = 1.2 + 1e-14;
    expect(roundForGoal(hair, parseGoal('<= 1.2x'))).toBe(hair);
  });
});
