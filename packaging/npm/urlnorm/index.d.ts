import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';

/** urlnorm's release version (the package version). */
export declare const version: string;

/** The absolute path of the bundled urlnorm.duckdb_extension for this platform (linux-x64, linux-arm64). */
export declare function extensionPath(): string;

/** The SQL statement that loads the extension: LOAD '<extensionPath()>'. */
export declare function loadStatement(): string;

/**
 * Loads urlnorm's SQL functions (normalize_url, canonical_hash, url_link_type, ...) into the
 * database of connection and returns it. The instance must have been created with
 * { allow_unsigned_extensions: 'true' }: see create.
 */
export declare function load<C extends Pick<DuckDBConnection, 'run'>>(connection: C): Promise<C>;

/** DuckDBInstance.create(path, options) with allow_unsigned_extensions set and urlnorm loaded. */
export declare function create(path?: string, options?: Record<string, string>): Promise<DuckDBInstance>;
