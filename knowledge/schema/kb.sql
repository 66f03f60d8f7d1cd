-- The compiled knowledge base (read-only at run time). Rebuilt from knowledge/data/,
-- never migrated: its PRAGMA user_version is knowledge.build.KB_SCHEMA_VERSION.
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE documents (
    id TEXT PRIMARY KEY, short TEXT NOT NULL, title TEXT NOT NULL, authors TEXT NOT NULL,
    kind TEXT NOT NULL);
CREATE TABLE units (name TEXT PRIMARY KEY, dimension TEXT NOT NULL, si REAL NOT NULL);
CREATE TABLE kinds (name TEXT PRIMARY KEY, description TEXT NOT NULL);
CREATE TABLE metrics (name TEXT PRIMARY KEY, dimensions TEXT NOT NULL, description TEXT NOT NULL);
CREATE TABLE factor_defs (
    name TEXT PRIMARY KEY, type TEXT NOT NULL CHECK (type IN ('categorical', 'numeric')),
    unit TEXT REFERENCES units(name), levels TEXT, description TEXT NOT NULL);
CREATE TABLE decisions (name TEXT PRIMARY KEY, description TEXT NOT NULL);
CREATE TABLE testbeds (
    document TEXT NOT NULL REFERENCES documents(id), id TEXT NOT NULL, locator TEXT NOT NULL,
    description TEXT, cpu TEXT, cores TEXT, ram TEXT, disks TEXT, nic TEXT, hypervisor TEXT,
    hypervisor_version TEXT, host_os TEXT, guest_os TEXT, other TEXT,
    PRIMARY KEY (document, id));
CREATE TABLE measurements (
    mid INTEGER PRIMARY KEY,
    document TEXT NOT NULL REFERENCES documents(id),
    key TEXT NOT NULL,
    locator TEXT NOT NULL,
    metric TEXT NOT NULL REFERENCES metrics(name),
    value REAL NOT NULL,
    unit TEXT NOT NULL REFERENCES units(name),
    kind TEXT NOT NULL REFERENCES kinds(name),
    subject TEXT NOT NULL,
    baseline TEXT NOT NULL DEFAULT '',
    qualifier TEXT NOT NULL DEFAULT '=',
    value_low REAL, value_high REAL,
    value_si REAL NOT NULL,
    testbed TEXT NOT NULL DEFAULT '',
    note TEXT NOT NULL DEFAULT '',
    UNIQUE (document, key));
CREATE TABLE factors (
    mid INTEGER NOT NULL REFERENCES measurements(mid),
    factor TEXT NOT NULL REFERENCES factor_defs(name),
    level TEXT NOT NULL,
    level_num REAL,
    PRIMARY KEY (mid, factor));
CREATE TABLE conclusions (
    document TEXT NOT NULL REFERENCES documents(id), id TEXT NOT NULL,
    decision TEXT NOT NULL REFERENCES decisions(name), locator TEXT NOT NULL,
    condition TEXT NOT NULL, recommendation TEXT NOT NULL,
    PRIMARY KEY (document, id));
CREATE TABLE conclusion_evidence (
    document TEXT NOT NULL, conclusion TEXT NOT NULL, measurement TEXT NOT NULL,
    PRIMARY KEY (document, conclusion, measurement));
-- where a document disagrees with itself (knowledge/data/<doc>/notes*.csv), and the rows it touches
CREATE TABLE notes (
    document TEXT NOT NULL REFERENCES documents(id), id TEXT NOT NULL, locator TEXT NOT NULL,
    text TEXT NOT NULL, reading TEXT NOT NULL,
    PRIMARY KEY (document, id));
CREATE TABLE note_rows (
    document TEXT NOT NULL, note TEXT NOT NULL, measurement TEXT NOT NULL,
    PRIMARY KEY (document, note, measurement));
CREATE INDEX measurements_metric ON measurements(metric);
CREATE INDEX measurements_locator ON measurements(document, locator);
CREATE INDEX factors_lookup ON factors(factor, level COLLATE NOCASE);
