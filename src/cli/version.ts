// `understudy --version`: the version in the package's own package.json.

export { packageVersion } from '../core/package-info.js';
