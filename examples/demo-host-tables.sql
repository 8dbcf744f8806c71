-- Tables the demo's host adds for its own tree (used by `task-association demo` only): a sector
-- level above the activity groups, and a metric table of its own with a third metric column.
-- Both carry the common columns, as every table a TREE_VIEW names must; the metric table's key
-- index (scope, task sheet, activity, group) serves saves and each branch's saved values.
CREATE TABLE app_setor (
  SEQ_DB bigint unsigned NOT NULL AUTO_INCREMENT,
  EMPRESA int NOT NULL, FILIAL int NOT NULL, LOCAL int NOT NULL,
  INS_DH timestamp NULL DEFAULT CURRENT_TIMESTAMP, INS_USUARIO_SEQ_DB bigint unsigned NOT NULL,
  UPD_DH timestamp NULL DEFAULT NULL ON UPDATE CURRENT_TIMESTAMP, UPD_USUARIO_SEQ_DB bigint unsigned NULL,
  SOURCE varchar(50) NULL, ATIVO tinyint(1) DEFAULT 1, DELETED tinyint(1) DEFAULT 0, RO tinyint(1) DEFAULT 0,
  ID int unsigned NOT NULL,
  CODIGO varchar(20) NULL,
  DESCRICAO varchar(100) NULL,
  PRIMARY KEY (EMPRESA, FILIAL, LOCAL, ID),
  UNIQUE KEY app_setor_seq_db (SEQ_DB)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE app_setor_oper_grupo (
  SEQ_DB bigint unsigned NOT NULL AUTO_INCREMENT,
  EMPRESA int NOT NULL, FILIAL int NOT NULL, LOCAL int NOT NULL,
  INS_DH timestamp NULL DEFAULT CURRENT_TIMESTAMP, INS_USUARIO_SEQ_DB bigint unsigned NOT NULL,
  UPD_DH timestamp NULL DEFAULT NULL ON UPDATE CURRENT_TIMESTAMP, UPD_USUARIO_SEQ_DB bigint unsigned NULL,
  SOURCE varchar(50) NULL, ATIVO tinyint(1) DEFAULT 1, DELETED tinyint(1) DEFAULT 0, RO tinyint(1) DEFAULT 0,
  ID int unsigned NOT NULL,
  SETOR_SEQ_DB bigint unsigned NULL,
  OPER_GRUPO_SEQ_DB bigint unsigned NULL,
  PRIMARY KEY (EMPRESA, FILIAL, LOCAL, ID),
  UNIQUE KEY app_setor_oper_grupo_seq_db (SEQ_DB),
  KEY app_setor_oper_grupo_setor (SETOR_SEQ_DB),
  KEY app_setor_oper_grupo_grupo (OPER_GRUPO_SEQ_DB)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE app_folha_tarefa_metrica (
  SEQ_DB bigint unsigned NOT NULL AUTO_INCREMENT,
  EMPRESA int NOT NULL, FILIAL int NOT NULL, LOCAL int NOT NULL,
  INS_DH timestamp NULL DEFAULT CURRENT_TIMESTAMP, INS_USUARIO_SEQ_DB bigint unsigned NOT NULL,
  UPD_DH timestamp NULL DEFAULT NULL ON UPDATE CURRENT_TIMESTAMP, UPD_USUARIO_SEQ_DB bigint unsigned NULL,
  SOURCE varchar(50) NULL, ATIVO tinyint(1) DEFAULT 1, DELETED tinyint(1) DEFAULT 0, RO tinyint(1) DEFAULT 0,
  ID int unsigned NOT NULL,
  OPER_SEQ_DB bigint unsigned NULL,
  OPER_GRUPO_SEQ_DB bigint unsigned NULL,
  FOLHA_TAREFA_SEQ_DB bigint unsigned NULL,
  METRICA1 decimal(10,2) NULL,
  METRICA2 int NULL,
  HORAS decimal(4,1) NULL,
  PRIMARY KEY (EMPRESA, FILIAL, LOCAL, ID),
  UNIQUE KEY app_folha_tarefa_metrica_seq_db (SEQ_DB),
  KEY app_folha_tarefa_metrica_key (EMPRESA, FILIAL, LOCAL, FOLHA_TAREFA_SEQ_DB, OPER_SEQ_DB, OPER_GRUPO_SEQ_DB)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
