-- One string per record: a fixed-width header, then the variable values and the arguments, in one SET
-- with its TTL. Header: schema (1), status (1: P, R or E), raw flag (1), lease (20: ten digits of
-- seconds, ':', nine of nanoseconds), the token's length (2 digits); then the token, and
-- '|<createdAt>|<tool>|<fingerprint>\n<arguments>'.
-- ARGV[11] '<schema>P0', ARGV[12] '<token length><token>|<createdAt>|<tool>|<fingerprint>\n', ARGV[13] arguments
redis.call('SET', record, string.format('%s%010d:%09d%s%s', ARGV[11], leaseSeconds, leaseNanos, ARGV[12], ARGV[13]),
    'PX', ARGV[3])
redis.call('SET', KEYS[4], '', 'PX', ARGV[3])
return {'CREATED', 'calls', tostring(calls)}
