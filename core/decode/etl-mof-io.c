/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-mof-io.c: kernel MOF layouts of the I/O, network, registry and
 * memory classes: DiskIo, FileIo, TcpIp, UdpIp, Registry and PageFault
 * (the Memory group).  One row per field, as Microsoft's MOF class pages
 * list them; see etl-mof-kernel.c for the naming rules and registration.
 */

#include "config.h"

#include "etl-mof-kernel-private.h"

#define F ETL_MOF_F
#define MAP ETL_MOF_MAP
#define FIXED ETL_MOF_FIXED
#define CLASS ETL_MOF_CLASS

/* The tables keep one row per field, as the documentation lists them. */
/* clang-format off */
/* ------------------------------------------------------------------------ */
/* DiskIo (DiskIoGuid, group 0x01)                                           */
/* ------------------------------------------------------------------------ */

/* DiskIo_TypeGroup1, version 2, types 10 (Read), 11 (Write). */
static const EtlMofField diskio_rw_v2[] = {
  F ("DiskNumber", UINT32, NULL),
  MAP ("IrpFlags", UINT32, "IrpFlags"),
  F ("TransferSize", UINT32, NULL),
  F ("Reserved", UINT32, NULL),
  F ("ByteOffset", INT64, NULL),
  F ("FileKey", POINTER, NULL), /* MOF: FileObject */
  F ("Irp", POINTER, NULL),
  F ("HighResResponseTime", UINT64, NULL),
};
/* DiskIo_TypeGroup1, version 3: adds the issuing thread. */
static const EtlMofField diskio_rw_v3[] = {
  F ("DiskNumber", UINT32, NULL),
  MAP ("IrpFlags", UINT32, "IrpFlags"),
  F ("TransferSize", UINT32, NULL),
  F ("Reserved", UINT32, NULL),
  F ("ByteOffset", INT64, NULL),
  F ("FileKey", POINTER, NULL), /* MOF: FileObject */
  F ("Irp", POINTER, NULL),
  F ("HighResResponseTime", UINT64, NULL),
  F ("IssuingThreadId", UINT32, NULL),
};

/* DiskIo_TypeGroup2, types 12 (ReadInit), 13 (WriteInit), 15 (FlushInit). */
static const EtlMofField diskio_init_v2[] = {
  F ("Irp", POINTER, NULL),
};
static const EtlMofField diskio_init_v3[] = {
  F ("Irp", POINTER, NULL),
  F ("IssuingThreadId", UINT32, NULL),
};

/* DiskIo_TypeGroup3, type 14 (FlushBuffers). */
static const EtlMofField diskio_flush_v2[] = {
  F ("DiskNumber", UINT32, NULL),
  MAP ("IrpFlags", UINT32, "IrpFlags"),
  F ("HighResResponseTime", UINT64, NULL),
  F ("Irp", POINTER, NULL),
};
static const EtlMofField diskio_flush_v3[] = {
  F ("DiskNumber", UINT32, NULL),
  MAP ("IrpFlags", UINT32, "IrpFlags"),
  F ("HighResResponseTime", UINT64, NULL),
  F ("Irp", POINTER, NULL),
  F ("IssuingThreadId", UINT32, NULL),
};

/* DriverMajorFunctionCall (DiskIo_DrvMjFnCall), version 2, type 34. */
static const EtlMofField diskio_drvmjfncall[] = {
  F ("MajorFunction", UINT32, NULL),
  F ("MinorFunction", UINT32, NULL),
  F ("RoutineAddr", POINTER, NULL),
  F ("FileObject", POINTER, NULL),
  F ("Irp", POINTER, NULL),
  F ("UniqMatchId", UINT32, NULL),
};
/* DiskIo_DrvMjFnRet, version 2, type 35; DiskIo_DrvCompReqRet, type 53. */
static const EtlMofField diskio_drvret[] = {
  F ("Irp", POINTER, NULL),
  F ("UniqMatchId", UINT32, NULL),
};
/* DiskIo_DrvCompRout, version 2, type 37. */
static const EtlMofField diskio_drvcomprout[] = {
  F ("Routine", POINTER, NULL),
  F ("IrpPtr", POINTER, NULL),
  F ("UniqMatchId", UINT32, NULL),
};
/* DiskIo_DrvCompReq, version 2, type 52. */
static const EtlMofField diskio_drvcompreq[] = {
  F ("RoutineAddr", POINTER, NULL),
  F ("Irp", POINTER, NULL),
  F ("UniqMatchId", UINT32, NULL),
};

/* ------------------------------------------------------------------------ */
/* FileIo (FileIoGuid, group 0x04)                                           */
/* ------------------------------------------------------------------------ */

/* FileIo_Name, version 2, types 0 (Name), 32 (FileCreate), 35 (FileDelete),
 * 36 (FileRundown). */
static const EtlMofField fileio_name[] = {
  F ("FileObject", POINTER, NULL),
  F ("FileName", UNICODESTRING, NT_PATH),
};

/* FileIo_Create, version 2, type 64. */
static const EtlMofField fileio_create_v2[] = {
  F ("IrpPtr", POINTER, NULL),
  F ("TTID", POINTER, NULL),
  F ("FileObject", POINTER, NULL),
  MAP ("CreateOptions", UINT32, "FileCreateOptions"),
  MAP ("FileAttributes", UINT32, "FileAttributes"),
  MAP ("ShareAccess", UINT32, "FileShareAccess"),
  F ("OpenPath", UNICODESTRING, NT_PATH),
};
/* FileIo_SimpleOp, version 2, types 65 (Cleanup), 66 (Close), 73 (Flush). */
static const EtlMofField fileio_simpleop_v2[] = {
  F ("IrpPtr", POINTER, NULL),
  F ("TTID", POINTER, NULL),
  F ("FileObject", POINTER, NULL),
  F ("FileKey", POINTER, NULL),
};
/* FileIo_ReadWrite, version 2, types 67 (Read), 68 (Write). */
static const EtlMofField fileio_readwrite_v2[] = {
  F ("Offset", UINT64, NULL),
  F ("IrpPtr", POINTER, NULL),
  F ("TTID", POINTER, NULL),
  F ("FileObject", POINTER, NULL),
  F ("FileKey", POINTER, NULL),
  F ("IoSize", UINT32, NULL),
  F ("IoFlags", UINT32, NULL),
};
/* FileIo_Info, version 2, types 69 (SetInfo), 70 (Delete), 71 (Rename),
 * 74 (QueryInfo), 75 (FSControl). */
static const EtlMofField fileio_info_v2[] = {
  F ("IrpPtr", POINTER, NULL),
  F ("TTID", POINTER, NULL),
  F ("FileObject", POINTER, NULL),
  F ("FileKey", POINTER, NULL),
  F ("ExtraInfo", POINTER, NULL),
  F ("InfoClass", UINT32, NULL),
};
/* FileIo_DirEnum, version 2, types 72 (DirEnum), 77 (DirNotify). */
static const EtlMofField fileio_direnum_v2[] = {
  F ("IrpPtr", POINTER, NULL),
  F ("TTID", POINTER, NULL),
  F ("FileObject", POINTER, NULL),
  F ("FileKey", POINTER, NULL),
  F ("Length", UINT32, NULL),
  F ("InfoClass", UINT32, NULL),
  F ("FileIndex", UINT32, NULL),
  F ("FileName", UNICODESTRING, NULL),
};
/* FileIo_OpEnd, versions 2 and 3, type 76. */
static const EtlMofField fileio_opend[] = {
  F ("IrpPtr", POINTER, NULL),
  F ("ExtraInfo", POINTER, NULL),
  F ("NtStatus", UINT32, NTSTATUS),
};

/* Version 3 (Windows 8 and later; the layouts TraceEvent reads, not on the
 * MOF pages): the issuing thread becomes a 32-bit id after the file fields. */
static const EtlMofField fileio_create_v3[] = {
  F ("IrpPtr", POINTER, NULL),
  F ("FileObject", POINTER, NULL),
  F ("TTID", UINT32, NULL),
  MAP ("CreateOptions", UINT32, "FileCreateOptions"),
  MAP ("FileAttributes", UINT32, "FileAttributes"),
  MAP ("ShareAccess", UINT32, "FileShareAccess"),
  F ("OpenPath", UNICODESTRING, NT_PATH),
};
static const EtlMofField fileio_simpleop_v3[] = {
  F ("IrpPtr", POINTER, NULL),
  F ("FileObject", POINTER, NULL),
  F ("FileKey", POINTER, NULL),
  F ("TTID", UINT32, NULL),
};
static const EtlMofField fileio_readwrite_v3[] = {
  F ("Offset", UINT64, NULL),
  F ("IrpPtr", POINTER, NULL),
  F ("FileObject", POINTER, NULL),
  F ("FileKey", POINTER, NULL),
  F ("TTID", UINT32, NULL),
  F ("IoSize", UINT32, NULL),
  F ("IoFlags", UINT32, NULL),
};
static const EtlMofField fileio_info_v3[] = {
  F ("IrpPtr", POINTER, NULL),
  F ("FileObject", POINTER, NULL),
  F ("FileKey", POINTER, NULL),
  F ("ExtraInfo", POINTER, NULL),
  F ("TTID", UINT32, NULL),
  F ("InfoClass", UINT32, NULL),
};
static const EtlMofField fileio_direnum_v3[] = {
  F ("IrpPtr", POINTER, NULL),
  F ("FileObject", POINTER, NULL),
  F ("FileKey", POINTER, NULL),
  F ("TTID", UINT32, NULL),
  F ("Length", UINT32, NULL),
  F ("InfoClass", UINT32, NULL),
  F ("FileIndex", UINT32, NULL),
  F ("FileName", UNICODESTRING, NULL),
};

/* ------------------------------------------------------------------------ */
/* TcpIp (TcpIpGuid, group 0x06) and UdpIp (UdpIpGuid, group 0x08)           */
/* ------------------------------------------------------------------------ */

/* TcpIp_SendIPV4, version 2, type 10. */
static const EtlMofField tcpip_send4[] = {
  F ("PID", UINT32, NULL),
  F ("size", UINT32, NULL),
  F ("daddr", UINT32, IPV4),
  F ("saddr", UINT32, IPV4),
  F ("dport", UINT16, PORT),
  F ("sport", UINT16, PORT),
  F ("startime", UINT32, NULL),
  F ("endtime", UINT32, NULL),
  F ("seqnum", UINT32, NULL),
  F ("connid", POINTER, NULL),
};
/* TcpIp_TypeGroup1, version 2, types 11 (Recv), 13 (Disconnect),
 * 14 (Retransmit), 16 (Reconnect), 18 (TCPCopy); UdpIp_TypeGroup1,
 * version 2, types 10 (Send), 11 (Recv). */
static const EtlMofField ip_group1[] = {
  F ("PID", UINT32, NULL),
  F ("size", UINT32, NULL),
  F ("daddr", UINT32, IPV4),
  F ("saddr", UINT32, IPV4),
  F ("dport", UINT16, PORT),
  F ("sport", UINT16, PORT),
  F ("seqnum", UINT32, NULL),
  F ("connid", POINTER, NULL),
};
/* TcpIp_TypeGroup2, version 2, types 12 (Connect), 15 (Accept). */
static const EtlMofField tcpip_group2[] = {
  F ("PID", UINT32, NULL),
  F ("size", UINT32, NULL),
  F ("daddr", UINT32, IPV4),
  F ("saddr", UINT32, IPV4),
  F ("dport", UINT16, PORT),
  F ("sport", UINT16, PORT),
  F ("mss", UINT16, NULL),
  F ("sackopt", UINT16, NULL),
  F ("tsopt", UINT16, NULL),
  F ("wsopt", UINT16, NULL),
  F ("rcvwin", UINT32, NULL),
  F ("rcvwinscale", INT16, NULL),
  F ("sndwinscale", INT16, NULL),
  F ("seqnum", UINT32, NULL),
  F ("connid", POINTER, NULL),
};
/* TcpIp_SendIPV6, version 2, type 26. */
static const EtlMofField tcpip_send6[] = {
  F ("PID", UINT32, NULL),
  F ("size", UINT32, NULL),
  FIXED ("daddr", BINARY, IPV6, 16),
  FIXED ("saddr", BINARY, IPV6, 16),
  F ("dport", UINT16, PORT),
  F ("sport", UINT16, PORT),
  F ("startime", UINT32, NULL),
  F ("endtime", UINT32, NULL),
  F ("seqnum", UINT32, NULL),
  F ("connid", POINTER, NULL),
};
/* TcpIp_TypeGroup3, version 2, types 27 (RecvIPV6), 29, 30, 32, 34;
 * UdpIp_TypeGroup2 (UdpIp_V6), version 2, types 26 (SendIPV6), 27 (RecvIPV6). */
static const EtlMofField ip_group3[] = {
  F ("PID", UINT32, NULL),
  F ("size", UINT32, NULL),
  FIXED ("daddr", BINARY, IPV6, 16),
  FIXED ("saddr", BINARY, IPV6, 16),
  F ("dport", UINT16, PORT),
  F ("sport", UINT16, PORT),
  F ("seqnum", UINT32, NULL),
  F ("connid", POINTER, NULL),
};
/* TcpIp_TypeGroup4, version 2, types 28 (ConnectIPV6), 31 (AcceptIPV6). */
static const EtlMofField tcpip_group4[] = {
  F ("PID", UINT32, NULL),
  F ("size", UINT32, NULL),
  FIXED ("daddr", BINARY, IPV6, 16),
  FIXED ("saddr", BINARY, IPV6, 16),
  F ("dport", UINT16, PORT),
  F ("sport", UINT16, PORT),
  F ("mss", UINT16, NULL),
  F ("sackopt", UINT16, NULL),
  F ("tsopt", UINT16, NULL),
  F ("wsopt", UINT16, NULL),
  F ("rcvwin", UINT32, NULL),
  F ("rcvwinscale", INT16, NULL),
  F ("sndwinscale", INT16, NULL),
  F ("seqnum", UINT32, NULL),
  F ("connid", POINTER, NULL),
};
/* TcpIp_Fail and UdpIp_Fail, version 2, type 17. */
static const EtlMofField ip_fail[] = {
  F ("Proto", UINT16, NULL),
  F ("FailureCode", UINT16, NULL),
};

/* ------------------------------------------------------------------------ */
/* Registry (RegistryGuid, group 0x09)                                       */
/* ------------------------------------------------------------------------ */

/* Registry_TypeGroup1, version 2, types 10–27 (Create … Close). */
static const EtlMofField registry_group1[] = {
  F ("InitialTime", INT64, NULL),
  F ("Status", UINT32, NTSTATUS),
  F ("Index", UINT32, NULL),
  F ("KeyHandle", POINTER, NULL),
  F ("KeyName", UNICODESTRING, NULL),
};

/* ------------------------------------------------------------------------ */
/* PageFault (PageFaultGuid, group 0x02, TraceEvent's "Memory")              */
/* ------------------------------------------------------------------------ */

/* PageFault_TypeGroup1, version 2, types 10 (TransitionFault),
 * 11 (DemandZeroFault), 12 (CopyOnWrite), 13 (GuardPageFault),
 * 14 (HardPageFault), 15 (AccessViolation). */
static const EtlMofField pagefault_group1[] = {
  F ("VirtualAddress", POINTER, NULL),
  F ("ProgramCounter", POINTER, NULL),
};
/* PageFault_HardFault, version 2, type 32. */
static const EtlMofField pagefault_hardfault[] = {
  F ("InitialTime", INT64, NULL),
  F ("ReadOffset", UINT64, NULL),
  F ("VirtualAddress", POINTER, NULL),
  F ("FileKey", POINTER, NULL), /* MOF: FileObject */
  F ("TThreadId", UINT32, NULL),
  F ("ByteCount", UINT32, NULL),
};
/* PageFault_ImageLoadBacked, version 2, type 105. */
static const EtlMofField pagefault_imageloadbacked[] = {
  F ("FileObject", POINTER, NULL),
  F ("DeviceChar", UINT32, NULL),
  F ("FileChar", UINT16, NULL),
  F ("LoadFlags", UINT16, NULL),
};
/* PageFault_VirtualAlloc, version 2, types 98 (VirtualAlloc),
 * 99 (VirtualFree). */
static const EtlMofField pagefault_virtualalloc[] = {
  F ("BaseAddress", POINTER, NULL),
  F ("RegionSize", SIZET, NULL),
  F ("ProcessId", UINT32, NULL),
  MAP ("Flags", UINT32, "VirtualAllocFlags"),
};

/* ------------------------------------------------------------------------ */

#define G_DISKIO ETL_MOF_GROUP_DISKIO
#define G_MEMORY ETL_MOF_GROUP_MEMORY
#define G_FILEIO ETL_MOF_GROUP_FILEIO
#define G_TCPIP ETL_MOF_GROUP_TCPIP
#define G_UDPIP ETL_MOF_GROUP_UDPIP
#define G_REGISTRY ETL_MOF_GROUP_REGISTRY

const EtlMofClass etl_mof_io_classes[] = {
  CLASS ("DiskIo_TypeGroup1", G_DISKIO, 2, diskio_rw_v2, 10, 11),
  CLASS ("DiskIo_TypeGroup1", G_DISKIO, 3, diskio_rw_v3, 10, 11),
  CLASS ("DiskIo_TypeGroup2", G_DISKIO, 2, diskio_init_v2, 12, 13, 15),
  CLASS ("DiskIo_TypeGroup2", G_DISKIO, 3, diskio_init_v3, 12, 13, 15),
  CLASS ("DiskIo_TypeGroup3", G_DISKIO, 2, diskio_flush_v2, 14),
  CLASS ("DiskIo_TypeGroup3", G_DISKIO, 3, diskio_flush_v3, 14),
  CLASS ("DiskIo_DrvMjFnCall", G_DISKIO, 2, diskio_drvmjfncall, 34),
  CLASS ("DiskIo_DrvMjFnRet", G_DISKIO, 2, diskio_drvret, 35, 53),
  CLASS ("DiskIo_DrvCompRout", G_DISKIO, 2, diskio_drvcomprout, 37),
  CLASS ("DiskIo_DrvCompReq", G_DISKIO, 2, diskio_drvcompreq, 52),
  CLASS ("FileIo_Name", G_FILEIO, 2, fileio_name, 0, 32, 35, 36),
  CLASS ("FileIo_Name", G_FILEIO, 3, fileio_name, 0, 32, 35, 36),
  CLASS ("FileIo_Create", G_FILEIO, 2, fileio_create_v2, 64),
  CLASS ("FileIo_SimpleOp", G_FILEIO, 2, fileio_simpleop_v2, 65, 66, 73),
  CLASS ("FileIo_ReadWrite", G_FILEIO, 2, fileio_readwrite_v2, 67, 68),
  CLASS ("FileIo_Info", G_FILEIO, 2, fileio_info_v2, 69, 70, 71, 74, 75),
  CLASS ("FileIo_DirEnum", G_FILEIO, 2, fileio_direnum_v2, 72, 77),
  CLASS ("FileIo_OpEnd", G_FILEIO, 2, fileio_opend, 76),
  CLASS ("FileIo_V3_Create", G_FILEIO, 3, fileio_create_v3, 64),
  CLASS ("FileIo_V3_SimpleOp", G_FILEIO, 3, fileio_simpleop_v3, 65, 66, 73),
  CLASS ("FileIo_V3_ReadWrite", G_FILEIO, 3, fileio_readwrite_v3, 67, 68),
  CLASS ("FileIo_V3_Info", G_FILEIO, 3, fileio_info_v3, 69, 70, 71, 74, 75),
  CLASS ("FileIo_V3_DirEnum", G_FILEIO, 3, fileio_direnum_v3, 72, 77),
  CLASS ("FileIo_V3_OpEnd", G_FILEIO, 3, fileio_opend, 76),
  CLASS ("TcpIp_SendIPV4", G_TCPIP, 2, tcpip_send4, 10),
  CLASS ("TcpIp_TypeGroup1", G_TCPIP, 2, ip_group1, 11, 13, 14, 16, 18),
  CLASS ("TcpIp_TypeGroup2", G_TCPIP, 2, tcpip_group2, 12, 15),
  CLASS ("TcpIp_Fail", G_TCPIP, 2, ip_fail, 17),
  CLASS ("TcpIp_SendIPV6", G_TCPIP, 2, tcpip_send6, 26),
  CLASS ("TcpIp_TypeGroup3", G_TCPIP, 2, ip_group3, 27, 29, 30, 32, 34),
  CLASS ("TcpIp_TypeGroup4", G_TCPIP, 2, tcpip_group4, 28, 31),
  CLASS ("UdpIp_TypeGroup1", G_UDPIP, 2, ip_group1, 10, 11),
  CLASS ("UdpIp_TypeGroup2", G_UDPIP, 2, ip_group3, 26, 27),
  CLASS ("UdpIp_Fail", G_UDPIP, 2, ip_fail, 17),
  CLASS ("Registry_TypeGroup1", G_REGISTRY, 2, registry_group1, 10, 11, 12, 13, 14, 15, 16, 17,
         18, 19, 20, 21, 22, 23, 24, 25, 26, 27),
  CLASS ("PageFault_TypeGroup1", G_MEMORY, 2, pagefault_group1, 10, 11, 12, 13, 14, 15),
  CLASS ("PageFault_HardFault", G_MEMORY, 2, pagefault_hardfault, 32),
  CLASS ("PageFault_ImageLoadBacked", G_MEMORY, 2, pagefault_imageloadbacked, 105),
  CLASS ("PageFault_VirtualAlloc", G_MEMORY, 2, pagefault_virtualalloc, 98, 99),
};
/* clang-format on */

const guint etl_mof_n_io_classes = G_N_ELEMENTS (etl_mof_io_classes);
