import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldErrorsFrom } from '../../shared/errors';

const schema = z.object({
  url: z.string().url('The url must be a valid URL.'),
  privacy: z.object({ password: z.string().min(8, 'The password must have at least 8 characters.') }),
  tags: z.array(z.string().min(1, 'A tag cannot be empty.')),
});

const issuesOf = (input: unknown) => {
  const parsed = schema.safeParse(input);
  if (parsed.success) throw new Error('expected the input to be refused');
  return parsed.error.issues;
};

describe('fieldErrorsFrom', () => {
  it('keys each message by its dotted field path, in order', () => {
    const issues = issuesOf({ url: 'nope', privacy: { password: 'short' }, tags: ['ok', ''] });
    expect(fieldErrorsFrom(issues)).toEqual({
      url: ['The url must be a valid URL.'],
      'privacy.password': ['The password must have at least 8 characters.'],
      'tags.1': ['A tag cannot be empty.'],
    });
  });

  it('keys a problem with the whole input as "_"', () => {
    const issues = z.string().safeParse(42).error?.issues ?? [];
    expect(Object.keys(fieldErrorsFrom(issues))).toEqual(['_']);
  });

  it('collects several messages for one field under the key the asker chooses', () => {
    const twoRules = z.object({
      name: z
        .string()
        .min(3, 'Too short.')
        .regex(/^[a-z]+$/, 'Only letters.'),
    });
    const issues = twoRules.safeParse({ name: '1' }).error?.issues ?? [];
    const options: Record<string, string> = { name: '--name' };
    expect(fieldErrorsFrom(issues, (path) => options[String(path[0])] ?? String(path[0]))).toEqual({
      '--name': ['Too short.', 'Only letters.'],
    });
  });

  it('answers an empty map for no issues', () => {
    expect(fieldErrorsFrom([])).toEqual({});
  });
});
