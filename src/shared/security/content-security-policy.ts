/**
 * The renderer's content security policy, one text for both hosts: the
 * browser host sends it as a header, and the build writes it into
 * index.html as a meta tag, which is all the Electron window (loaded from
 * file://) gets. Scripts only from the app itself, no eval; inline styles
 * for Vue's style bindings; data: images for the icon masks.
 */
const DIRECTIVES: [string, string][] = [
  ['default-src', "'self'"],
  ['script-src', "'self'"],
  ['style-src', "'self' 'unsafe-inline'"],
  ['img-src', "'self' data:"],
  ['connect-src', "'self'"],
  ['base-uri', "'none'"],
  ['form-action', "'none'"],
  // Browsers ignore this one in a meta tag; only the header can carry it.
  ['frame-ancestors', "'none'"],
]

const policy = (directives: [string, string][]) => directives.map(([name, value]) => `${name} ${value}`).join('; ')

export const CONTENT_SECURITY_POLICY = policy(DIRECTIVES)

export const META_CONTENT_SECURITY_POLICY = policy(DIRECTIVES.filter(([name]) => name !== 'frame-ancestors'))
