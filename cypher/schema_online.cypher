// name: schema_online
// The names of the indexes that are online, constraints' own indexes included (a constraint's
// index bears its name): `apply_schema` leaves a schema that has them all as it is.
SHOW INDEXES YIELD name, state WHERE state = 'ONLINE' RETURN name;
