/**
 * How a number is written where the service reads text: option values in the
 * query string, scores and values in tuple notation, numeric parameters. One
 * pattern, so the URL codec, tuple notation and the chain editor accept the same
 * forms. The URL reader (url-parse.ts) reads option numbers by hand for speed;
 * test/shared/url-parse-reference.test.ts holds it to this pattern's answers.
 */
export const DECIMAL_PATTERN = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/
