DROP TABLE IF EXISTS authority_code_lists;
