/**
 * The Query API URL codec (SERVICE-CONTRACT "URLs"), in three parts:
 * url-build.ts writes URLs, url-parse.ts reads them back (the exact inverse on
 * normal chains, see normalize.ts), url-segments.ts holds what both share, and
 * version-segment.ts decides the optional `/<version>` segment. All pure; this
 * module only gathers their public names.
 */
export { VERSION_PATTERN, encodeEndpointName, encodeSegment, trimBase, type Parsed, type UrlError } from './url-segments'
export {
  buildDescriptionUrl,
  buildPath,
  buildQueryString,
  buildSentUrl,
  buildUrl,
  formatNumber,
  formatOption,
  rootMemo,
  rootPath,
  type RootWriter,
} from './url-build'
export { parseTarget, parseUrl, type ParseUrlOptions, type ParsedTarget, type ParsedUrl, type TargetOptions } from './url-parse'
export { sentVersion, versionSegment, withSentVersion } from './version-segment'
