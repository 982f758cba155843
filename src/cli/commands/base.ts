/** Why a query URL cannot serve as the base of requests, or null. */
export function checkBase(base: string): string | null {
  if (!/^https?:\/\/[^/?#\s]+/i.test(base)) return `"${base}" is not an http(s) URL such as https://query.example.com`
  if (/[?#]/.test(base)) return `"${base}" must not hold a query string or fragment: options belong to the request`
  return null
}
