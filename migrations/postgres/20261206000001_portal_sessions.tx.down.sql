DROP TABLE portal_sessions;
