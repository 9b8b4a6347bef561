/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-mof-kernel
 * @title: Kernel MOF layouts
 * @short_description: the NT Kernel Logger's and classic helpers' payloads, as data
 *
 * Kernel events (SYSTEM, COMPACT and PERFINFO records, and kernel classes
 * relogged with a FULL_HEADER) carry no metadata: their payload layouts are
 * the MOF classes Microsoft documents under "MSNT_SystemTrace" (Process_V4_
 * TypeGroup1, Thread_V3_TypeGroup1, Image_Load, DiskIo_TypeGroup1, …) and
 * the structures of ntwmi.h.  This module holds them as tables, one row per
 * field with the class name and version beside it (STYLE.md, "Decoding"),
 * and turns each (class, version, opcode) into an #EtlSchema of source
 * %ETL_SCHEMA_SOURCE_MOF, keyed by the class GUID of the HookId's group as
 * etl_schema_key_for_record() finds it.
 *
 * The tables are split by part: this file has EventTrace, Process, Thread,
 * Image, PerfInfo, StackWalk and ALPC; etl-mof-io.c the I/O, network,
 * registry and memory classes; etl-mof-config.c SystemConfig, xperf's
 * SysConfig rundown and KernelTraceControl's ImageID.
 *
 * Names: a field keeps the MOF class's name unless Microsoft TraceEvent
 * (whose output users and the baselines compare with) prints the same
 * bytes under another word; then TraceEvent's word is used and the row's
 * comment gives the MOF name (PageDirectoryBase for DirectoryTableBase,
 * FileKey for FileObject, …).  Names that differ only in letter case keep
 * the MOF spelling (ProcessId, which TraceEvent prints ProcessID).
 * Pointer-sized fields are %ETL_IN_POINTER / %ETL_IN_SIZET, so one table
 * serves 32- and 64-bit records.  Kernel file names are NT paths
 * (%ETL_OUT_NT_PATH).  Task and opcode names come from etl-names.c, so a
 * schema names an event exactly as etl_record_dup_event_name() does.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-mof-kernel-private.h"
#include "etl-mof-kernel.h"
#include "etl-names.h"

#define F ETL_MOF_F
#define FIXED ETL_MOF_FIXED
#define MAP ETL_MOF_MAP
#define TO_END ETL_MOF_TO_END_ARRAY
#define COUNTED ETL_MOF_COUNTED
#define CLASS ETL_MOF_CLASS

/* The tables keep one row per field, as the documentation lists them. */
/* clang-format off */
/* ------------------------------------------------------------------------ */
/* EventTrace (EventTraceGuid, group 0x00)                                   */
/* ------------------------------------------------------------------------ */

/* EventTrace_Header, version 2, type 0: TRACE_LOGFILE_HEADER as logged.
 * The TIME_ZONE_INFORMATION (172 bytes) starts with its Bias, which
 * TraceEvent prints as UtcOffsetMinutes; the rest and the padding to the
 * next 8-byte boundary make the MOF's TimeZoneInformation[176]. */
static const EtlMofField eventtrace_header[] = {
  F ("BufferSize", UINT32, NULL),
  F ("Version", UINT32, NULL),
  F ("ProviderVersion", UINT32, NULL),
  F ("NumberOfProcessors", UINT32, NULL),
  F ("EndTime", FILETIME, NULL),
  F ("TimerResolution", UINT32, NULL),
  F ("MaxFileSize", UINT32, NULL),
  F ("LogFileMode", UINT32, NULL),
  F ("BuffersWritten", UINT32, NULL),
  F ("StartBuffers", UINT32, NULL),
  F ("PointerSize", UINT32, NULL),
  F ("EventsLost", UINT32, NULL),
  F ("CPUSpeed", UINT32, NULL),
  F ("LoggerNamePointer", POINTER, NULL),  /* MOF: LoggerName */
  F ("LogFileNamePointer", POINTER, NULL), /* MOF: LogFileName */
  F ("UtcOffsetMinutes", INT32, NULL),     /* MOF: TimeZoneInformation.Bias */
  FIXED ("TimeZoneInformation", BINARY, HEXBINARY, 172),
  F ("BootTime", FILETIME, NULL),
  F ("PerfFreq", INT64, NULL),
  F ("StartTime", FILETIME, NULL),
  F ("ReservedFlags", UINT32, NULL),
  F ("BuffersLost", UINT32, NULL),
  F ("SessionName", UNICODESTRING, NULL), /* MOF: SessionNameString */
  F ("LogFileName", UNICODESTRING, NULL), /* MOF: LogFileNameString */
};

/* Header extension (types 5 Extension, 32 EndExtension), version 2:
 * the kernel group masks (PERFINFO_GROUPMASK) and the kernel event version. */
static const EtlMofField eventtrace_extension[] = {
  F ("GroupMask1", UINT32, NULL), F ("GroupMask2", UINT32, NULL), F ("GroupMask3", UINT32, NULL),
  F ("GroupMask4", UINT32, NULL), F ("GroupMask5", UINT32, NULL), F ("GroupMask6", UINT32, NULL),
  F ("GroupMask7", UINT32, NULL), F ("GroupMask8", UINT32, NULL),
  F ("KernelEventVersion", UINT32, NULL),
};

/* Header_PartitionInformation_TypeGroup, version 2, type 80
 * (PartitionInfoExtension): the Hyper-V partition the trace was taken in.
 * Layout: the kernel's MOF class as TDH lists it (dissect.etl's TDH dump
 * {68fdd900-…}.xml); 48 bytes, all zero on a host, in every corpus file. */
static const EtlMofField eventtrace_partitioninfo[] = {
  F ("EventVersion", UINT16, NULL),
  F ("Reserved", UINT16, NULL),
  F ("PartitionType", UINT32, NULL),
  F ("QpcOffsetFromRoot", INT64, NULL),
  F ("PartitionId", GUID, NULL),
  F ("ParentId", GUID, NULL),
};

/* LastDroppedTimes, version 2, type 82 (PERFINFO header): the times of the
 * last dropped events.  Not on the MOF pages; the layout is the class TDH
 * gives on Windows 11 (as the EtwTools generated KernelEventTraceProvider
 * lists it): a count, four bytes of padding, then that many 64-bit
 * timestamps (sonde_test.etl: count 16, 136 bytes). */
static const EtlMofField eventtrace_lastdroppedtimes[] = {
  F ("TimeStampCount", UINT32, NULL),
  F ("Padding", UINT32, NULL),
  COUNTED ("TimeStamp", UINT64, NULL, "TimeStampCount"),
};

/* DbgIdRSDS (type 64), BuildLab (66, TDH's BuildInfo) and BinaryPath (67,
 * TDH's ProviderBinaryPath), version 2, as TDH's kernel MOF classes list
 * them (dissect.etl's {68fdd900-…}.xml). */
static const EtlMofField eventtrace_dbgidrsds[] = {
  F ("Guid", GUID, NULL),
  F ("Age", UINT32, NULL),
  F ("PdbName", ANSISTRING, NULL),
};
static const EtlMofField eventtrace_buildlab[] = {
  F ("BuildString", ANSISTRING, NULL),
};
static const EtlMofField eventtrace_binarypath[] = {
  F ("GuidCount", UINT32, NULL),
  COUNTED ("Guid", GUID, NULL, "GuidCount"),
  F ("BinaryPath", UNICODESTRING, NULL),
};

/* ------------------------------------------------------------------------ */
/* Process (ProcessGuid, group 0x03)                                         */
/* ------------------------------------------------------------------------ */

/* Process_V1_TypeGroup1, version 1, types 1–4. */
static const EtlMofField process_v1[] = {
  F ("PageDirectoryBase", POINTER, NULL),
  F ("ProcessId", UINT32, NULL),
  F ("ParentId", UINT32, NULL),
  F ("SessionId", INT32, NULL),
  F ("ExitStatus", INT32, NULL),
  F ("UserSID", WBEMSID, NULL),
  F ("ImageFileName", ANSISTRING, NULL),
};

/* Process_V2_TypeGroup1, version 2, types 1–4, 39. */
static const EtlMofField process_v2[] = {
  F ("UniqueProcessKey", POINTER, NULL),
  F ("ProcessId", UINT32, NULL),
  F ("ParentId", UINT32, NULL),
  F ("SessionId", INT32, NULL),
  F ("ExitStatus", INT32, NULL),
  F ("UserSID", WBEMSID, NULL),
  F ("ImageFileName", ANSISTRING, NULL),
  F ("CommandLine", UNICODESTRING, NULL),
};

/* Process_V3_TypeGroup1, version 3, types 1–4, 39. */
static const EtlMofField process_v3[] = {
  F ("UniqueProcessKey", POINTER, NULL),
  F ("ProcessId", UINT32, NULL),
  F ("ParentId", UINT32, NULL),
  F ("SessionId", INT32, NULL),
  F ("ExitStatus", INT32, NULL),
  F ("PageDirectoryBase", POINTER, NULL), /* MOF: DirectoryTableBase */
  F ("UserSID", WBEMSID, NULL),
  F ("ImageFileName", ANSISTRING, NULL),
  F ("CommandLine", UNICODESTRING, NULL),
};

/* Process_V4_TypeGroup1, version 4, types 1–4 (Start, Stop, DCStart, DCStop)
 * and 39 (Defunct). */
static const EtlMofField process_v4[] = {
  F ("UniqueProcessKey", POINTER, NULL),
  F ("ProcessId", UINT32, NULL),
  F ("ParentId", UINT32, NULL),
  F ("SessionId", INT32, NULL),
  F ("ExitStatus", INT32, NULL),
  F ("PageDirectoryBase", POINTER, NULL), /* MOF: DirectoryTableBase */
  MAP ("Flags", UINT32, "ProcessFlags"),
  F ("UserSID", WBEMSID, NULL),
  F ("ImageFileName", ANSISTRING, NULL),
  F ("CommandLine", UNICODESTRING, NULL),
  F ("PackageFullName", UNICODESTRING, NULL),
  F ("ApplicationId", UNICODESTRING, NULL),
};

/* Process_Defunct_TypeGroup1, version 5, type 39 (Defunct): version 4's
 * fields and the exit time (TDH's kernel MOF, dissect.etl's {3d6fa8d0-…}.xml). */
static const EtlMofField process_defunct_v5[] = {
  F ("UniqueProcessKey", POINTER, NULL),
  F ("ProcessId", UINT32, NULL),
  F ("ParentId", UINT32, NULL),
  F ("SessionId", INT32, NULL),
  F ("ExitStatus", INT32, NULL),
  F ("PageDirectoryBase", POINTER, NULL), /* MOF: DirectoryTableBase */
  MAP ("Flags", UINT32, "ProcessFlags"),
  F ("UserSID", WBEMSID, NULL),
  F ("ImageFileName", ANSISTRING, NULL),
  F ("CommandLine", UNICODESTRING, NULL),
  F ("PackageFullName", UNICODESTRING, NULL),
  F ("ApplicationId", UNICODESTRING, NULL),
  F ("ExitTime", UINT64, NULL),
};

/* Process_V2_TypeGroup3, version 2, type 35 (InSwap). */
static const EtlMofField process_inswap[] = {
  F ("DirectoryTableBase", POINTER, NULL),
  F ("ProcessId", UINT32, NULL),
};

/* Process_V2_TypeGroup2, version 2, types 32 (PerfCtr), 33 (PerfCtrRundown). */
static const EtlMofField process_perfctr[] = {
  F ("ProcessId", UINT32, NULL),
  F ("MemoryCount", UINT32, NULL), /* MOF: PageFaultCount */
  F ("HandleCount", UINT32, NULL),
  F ("Reserved", UINT32, NULL),
  F ("PeakVirtualSize", SIZET, NULL),
  F ("PeakWorkingSetSize", SIZET, NULL),
  F ("PeakPagefileUsage", SIZET, NULL),
  F ("QuotaPeakPagedPoolUsage", SIZET, NULL),
  F ("QuotaPeakNonPagedPoolUsage", SIZET, NULL),
  F ("VirtualSize", SIZET, NULL),
  F ("WorkingSetSize", SIZET, NULL),
  F ("PagefileUsage", SIZET, NULL),
  F ("QuotaPagedPoolUsage", SIZET, NULL),
  F ("QuotaNonPagedPoolUsage", SIZET, NULL),
  F ("PrivatePageCount", SIZET, NULL),
};

/* Process_Terminate, version 2, type 11. */
static const EtlMofField process_terminate[] = {
  F ("ProcessId", UINT32, NULL),
};

/* ------------------------------------------------------------------------ */
/* Thread (ThreadGuid, group 0x05)                                           */
/* ------------------------------------------------------------------------ */

/* Thread_V2_TypeGroup1, version 2, types 1–4. */
static const EtlMofField thread_v2[] = {
  F ("ProcessId", UINT32, NULL),
  F ("TThreadId", UINT32, NULL),
  F ("StackBase", POINTER, NULL),
  F ("StackLimit", POINTER, NULL),
  F ("UserStackBase", POINTER, NULL),
  F ("UserStackLimit", POINTER, NULL),
  F ("StartAddr", POINTER, NULL),
  F ("Win32StartAddr", POINTER, NULL),
  F ("TebBase", POINTER, NULL),
  F ("SubProcessTag", UINT32, NULL),
};

/* Thread_V3_TypeGroup1, version 3, types 1–4.  TraceEvent keeps version 2's
 * name StartAddr for the field version 3 calls Affinity. */
static const EtlMofField thread_v3[] = {
  F ("ProcessId", UINT32, NULL),
  F ("TThreadId", UINT32, NULL),
  F ("StackBase", POINTER, NULL),
  F ("StackLimit", POINTER, NULL),
  F ("UserStackBase", POINTER, NULL),
  F ("UserStackLimit", POINTER, NULL),
  F ("StartAddr", POINTER, NULL), /* MOF: Affinity */
  F ("Win32StartAddr", POINTER, NULL),
  F ("TebBase", POINTER, NULL),
  F ("SubProcessTag", UINT32, NULL),
  F ("BasePriority", UINT8, NULL),
  F ("PagePriority", UINT8, NULL),
  F ("IoPriority", UINT8, NULL),
  F ("ThreadFlags", UINT8, NULL),
};

/* Thread version 4, types 1–4 (TDH's kernel MOF, dissect.etl's
 * {3d6fa8d1-…}.xml): version 3 and the thread's name. */
static const EtlMofField thread_v4[] = {
  F ("ProcessId", UINT32, NULL),
  F ("TThreadId", UINT32, NULL),
  F ("StackBase", POINTER, NULL),
  F ("StackLimit", POINTER, NULL),
  F ("UserStackBase", POINTER, NULL),
  F ("UserStackLimit", POINTER, NULL),
  F ("StartAddr", POINTER, NULL), /* MOF: Affinity */
  F ("Win32StartAddr", POINTER, NULL),
  F ("TebBase", POINTER, NULL),
  F ("SubProcessTag", UINT32, NULL),
  F ("BasePriority", UINT8, NULL),
  F ("PagePriority", UINT8, NULL),
  F ("IoPriority", UINT8, NULL),
  F ("ThreadFlags", UINT8, NULL),
  F ("ThreadName", UNICODESTRING, NULL),
};

/* Thread_SetPriority (types 48 SetPriority, 49 SetBasePriority,
 * 51 SetPagePriority, 52 SetIoPriority), version 3, and ThreadAffinity
 * (type 53 SetAffinity), version 2: TDH's kernel MOF (dissect.etl). */
static const EtlMofField thread_setpriority[] = {
  F ("ThreadId", UINT32, NULL),
  F ("OldPriority", UINT8, NULL),
  F ("NewPriority", UINT8, NULL),
  F ("Reserved", UINT16, NULL),
};
static const EtlMofField thread_setaffinity[] = {
  F ("Affinity", POINTER, NULL),
  F ("ThreadId", UINT32, NULL),
  F ("Group", UINT16, NULL),
  F ("Reserved", UINT16, NULL),
};

/* CSwitch, version 2, type 36. */
static const EtlMofField thread_cswitch[] = {
  F ("NewThreadId", UINT32, NULL),
  F ("OldThreadId", UINT32, NULL),
  F ("NewThreadPriority", INT8, NULL),
  F ("OldThreadPriority", INT8, NULL),
  F ("PreviousCState", UINT8, NULL),
  F ("SpareByte", INT8, NULL),
  MAP ("OldThreadWaitReason", INT8, "KWAIT_REASON"),
  MAP ("OldThreadWaitMode", INT8, "KPROCESSOR_MODE"),
  MAP ("OldThreadState", INT8, "KTHREAD_STATE"),
  F ("OldThreadWaitIdealProcessor", INT8, NULL),
  F ("NewThreadWaitTime", UINT32, NULL),
  F ("Reserved", UINT32, NULL),
};

/* ReadyThread, version 2, type 50 (TraceEvent's Dispatcher/ReadyThread). */
static const EtlMofField thread_readythread[] = {
  F ("TThreadId", UINT32, NULL),
  F ("AdjustReason", INT8, NULL),
  F ("AdjustIncrement", INT8, NULL),
  F ("Flag", INT8, NULL),
  F ("Reserved", INT8, NULL),
};

/* Thread SetName (type 72, version 2; ntwmi.h WMI_THREAD_SET_NAME, not on
 * the MOF pages): the thread and its description. */
static const EtlMofField thread_setname[] = {
  F ("ProcessId", UINT32, NULL),
  F ("ThreadId", UINT32, NULL),
  F ("ThreadName", UNICODESTRING, NULL),
};

/* ------------------------------------------------------------------------ */
/* Image (ImageLoadGuid, group 0x14; Load is logged as HookId 0x030A)        */
/* ------------------------------------------------------------------------ */

/* Image_Load, versions 2 and 3, types 10 (Load), 2 (Unload), 3 (DCStart),
 * 4 (DCStop).  TimeDateStamp is signed as TraceEvent prints it. */
static const EtlMofField image_load[] = {
  F ("ImageBase", POINTER, NULL),
  F ("ImageSize", SIZET, NULL),
  F ("ProcessId", UINT32, NULL),
  F ("ImageCheckSum", UINT32, NULL),
  F ("TimeDateStamp", INT32, NULL),
  F ("Reserved0", UINT32, NULL),
  F ("DefaultBase", POINTER, NULL),
  F ("Reserved1", UINT32, NULL),
  F ("Reserved2", UINT32, NULL),
  F ("Reserved3", UINT32, NULL),
  F ("Reserved4", UINT32, NULL),
  F ("FileName", UNICODESTRING, NT_PATH),
};

/* Image_V1_Load, version 1, types 10, 2, 3, 4. */
static const EtlMofField image_load_v1[] = {
  F ("ImageBase", POINTER, NULL),
  F ("ImageSize", SIZET, NULL),
  F ("ProcessId", UINT32, NULL),
  F ("FileName", UNICODESTRING, NT_PATH),
};

/* KernelBase (type 33) and HypercallPage (type 34), version 2: one address
 * (ntwmi.h WMI_IMAGE_KERNEL_BASE / hypercall page). */
static const EtlMofField image_kernelbase[] = {
  F ("ImageBase", POINTER, NULL),
};
static const EtlMofField image_hypercallpage[] = {
  F ("HypercallPageVa", POINTER, NULL),
};

/* ------------------------------------------------------------------------ */
/* PerfInfo (PerfInfoGuid, group 0x0F)                                       */
/* ------------------------------------------------------------------------ */

/* PerfInfo_SampledProfile, version 2, type 46 (Sample). */
static const EtlMofField perfinfo_sample[] = {
  F ("InstructionPointer", POINTER, NULL),
  F ("ThreadId", UINT32, NULL),
  F ("Count", UINT16, NULL),
  F ("Reserved", UINT16, NULL),
};

/* PerfInfo Mark, version 0, type 34: a marker's text, as xperf -m and WPR
 * log it with a FULL_HEADER.  TDH's class adds a one-character Padding
 * that the records of sonde_test.etl do not have (each ends at the NUL of
 * the ANSI text), so it is left out. */
static const EtlMofField perfinfo_mark[] = {
  F ("Message", ANSISTRING, NULL),
};

/* PmcCounterProf (type 47, PMCSample), version 2: TDH's kernel MOF. */
static const EtlMofField perfinfo_pmcsample[] = {
  F ("InstructionPointer", POINTER, NULL),
  F ("ThreadId", UINT32, NULL),
  F ("ProfileSource", UINT16, NULL),
  F ("Reserved", UINT16, NULL),
};

/* SysCallEnter, version 2, type 51. */
static const EtlMofField perfinfo_syscallenter[] = {
  F ("SysCallAddress", POINTER, NULL),
};

/* SysCallExit, version 2, type 52. */
static const EtlMofField perfinfo_syscallexit[] = {
  F ("SysCallNtStatus", UINT32, NTSTATUS),
};

/* ISR, version 2, type 67; ISR_MSI adds the message number (type 50). */
static const EtlMofField perfinfo_isr[] = {
  F ("InitialTime", UINT64, NULL),
  F ("Routine", POINTER, NULL),
  F ("ReturnValue", UINT8, NULL),
  F ("Vector", UINT8, NULL),
  F ("Reserved", UINT16, NULL),
};
static const EtlMofField perfinfo_isr_msi[] = {
  F ("InitialTime", UINT64, NULL),
  F ("Routine", POINTER, NULL),
  F ("ReturnValue", UINT8, NULL),
  F ("Vector", UINT8, NULL),
  F ("Reserved", UINT16, NULL),
  F ("MessageNumber", UINT32, NULL),
};

/* DPC, version 2, types 66 (ThreadedDPC), 68 (DPC), 69 (TimerDPC). */
static const EtlMofField perfinfo_dpc[] = {
  F ("InitialTime", UINT64, NULL),
  F ("Routine", POINTER, NULL),
};

/* PerfInfo_SampledProfileInterval_V3 (version 3) and _V2 (version 2):
 * types 72 (SetInterval), 73 (CollectionStart), 74 (CollectionEnd). */
static const EtlMofField perfinfo_interval_v3[] = {
  F ("SampleSource", UINT32, NULL), /* MOF: Source */
  F ("NewInterval", UINT32, NULL),
  F ("OldInterval", UINT32, NULL),
  F ("SourceName", UNICODESTRING, NULL),
};
static const EtlMofField perfinfo_interval_v2[] = {
  F ("SampleSource", UINT32, NULL), /* MOF: Source */
  F ("NewInterval", UINT32, NULL),
  F ("OldInterval", UINT32, NULL),
};

/* ------------------------------------------------------------------------ */
/* StackWalk (StackWalkGuid, group 0x18)                                     */
/* ------------------------------------------------------------------------ */

/* StackWalk_Event, version 2, type 32: Stack1…Stack192, as many as the
 * event's size holds. */
static const EtlMofField stackwalk_event[] = {
  F ("EventTimeStamp", UINT64, NULL),
  F ("StackProcess", UINT32, NULL),
  F ("StackThread", UINT32, NULL),
  TO_END ("Stack", POINTER, NULL),
};

/* Stack keys (ntwmi.h STACK_WALK_KEY_EVENT / compressed stacks), version 2:
 * types 37 (StackKeyKernel), 38 (StackKeyUser) name a key; 35 (KeyDelete)
 * and 36 (KeyRundown) give a key's frames. */
static const EtlMofField stackwalk_key[] = {
  F ("EventTimeStamp", UINT64, NULL),
  F ("StackProcess", UINT32, NULL),
  F ("StackThread", UINT32, NULL),
  F ("StackKey", POINTER, NULL),
};
static const EtlMofField stackwalk_keyframes[] = {
  F ("StackKey", POINTER, NULL),
  TO_END ("Stack", POINTER, NULL),
};

/* ------------------------------------------------------------------------ */
/* ALPC (AlpcGuid, group 0x1A)                                               */
/* ------------------------------------------------------------------------ */

/* ALPC_Send_Message (33), ALPC_Receive_Message (34),
 * ALPC_Wait_For_Reply (35), version 2. */
static const EtlMofField alpc_message[] = {
  F ("MessageID", UINT32, NULL),
};
/* ALPC_Wait_For_New_Message, version 2, type 36. */
static const EtlMofField alpc_wait_new[] = {
  F ("IsServerPort", UINT32, NULL),
  F ("PortName", ANSISTRING, NULL),
};
/* ALPC_Unwait, version 2, type 37. */
static const EtlMofField alpc_unwait[] = {
  F ("Status", UINT32, NTSTATUS),
};

/* ------------------------------------------------------------------------ */

#define G_EVENTTRACE ETL_MOF_GROUP_EVENTTRACE
#define G_PROCESS ETL_MOF_GROUP_PROCESS
#define G_THREAD ETL_MOF_GROUP_THREAD
#define G_IMAGE ETL_MOF_GROUP_IMAGE
#define G_PERFINFO ETL_MOF_GROUP_PERFINFO
#define G_STACKWALK ETL_MOF_GROUP_STACKWALK
#define G_ALPC ETL_MOF_GROUP_ALPC

const EtlMofClass etl_mof_core_classes[] = {
  CLASS ("EventTrace_Header", G_EVENTTRACE, 2, eventtrace_header, 0),
  CLASS ("EventTrace_Header", G_EVENTTRACE, 1, eventtrace_header, 0),
  CLASS ("EventTrace_Extension", G_EVENTTRACE, 2, eventtrace_extension, 5, 32),
  /* RundownComplete (type 8), RundownBegin/End (48, 49): no payload. */
  { "EventTrace_RundownComplete", G_EVENTTRACE, NULL, 2, 3, { 8, 48, 49 }, NULL, 0 },
  CLASS ("EventTrace_DbgIdRSDS", G_EVENTTRACE, 2, eventtrace_dbgidrsds, 64),
  CLASS ("EventTrace_BuildInfo", G_EVENTTRACE, 2, eventtrace_buildlab, 66),
  CLASS ("EventTrace_ProviderBinaryPath", G_EVENTTRACE, 2, eventtrace_binarypath, 67),
  CLASS ("Header_PartitionInformation_TypeGroup", G_EVENTTRACE, 2, eventtrace_partitioninfo, 80),
  CLASS ("EventTrace_LastDroppedTimes", G_EVENTTRACE, 2, eventtrace_lastdroppedtimes, 82),
  CLASS ("Process_V1_TypeGroup1", G_PROCESS, 1, process_v1, 1, 2, 3, 4),
  CLASS ("Process_V2_TypeGroup1", G_PROCESS, 2, process_v2, 1, 2, 3, 4, 39),
  CLASS ("Process_V3_TypeGroup1", G_PROCESS, 3, process_v3, 1, 2, 3, 4, 39),
  CLASS ("Process_V4_TypeGroup1", G_PROCESS, 4, process_v4, 1, 2, 3, 4, 39),
  CLASS ("Process_Defunct_TypeGroup1", G_PROCESS, 5, process_defunct_v5, 39),
  CLASS ("Process_V2_TypeGroup2", G_PROCESS, 2, process_perfctr, 32, 33),
  CLASS ("Process_V2_TypeGroup3", G_PROCESS, 2, process_inswap, 35),
  CLASS ("Process_Terminate", G_PROCESS, 2, process_terminate, 11),
  CLASS ("Thread_V2_TypeGroup1", G_THREAD, 2, thread_v2, 1, 2, 3, 4),
  CLASS ("Thread_V3_TypeGroup1", G_THREAD, 3, thread_v3, 1, 2, 3, 4),
  CLASS ("Thread_V4_TypeGroup1", G_THREAD, 4, thread_v4, 1, 2, 3, 4),
  CLASS ("Thread_SetPriority", G_THREAD, 3, thread_setpriority, 48, 49, 51, 52),
  CLASS ("Thread_SetAffinity", G_THREAD, 2, thread_setaffinity, 53),
  CLASS ("CSwitch", G_THREAD, 2, thread_cswitch, 36),
  CLASS ("CSwitch", G_THREAD, 3, thread_cswitch, 36),
  CLASS ("ReadyThread", G_THREAD, 2, thread_readythread, 50),
  CLASS ("Thread_SetName", G_THREAD, 2, thread_setname, 72),
  CLASS ("Image_V1_Load", G_IMAGE, 1, image_load_v1, 10, 2, 3, 4),
  CLASS ("Image_Load", G_IMAGE, 2, image_load, 10, 2, 3, 4),
  CLASS ("Image_Load", G_IMAGE, 3, image_load, 10, 2, 3, 4),
  CLASS ("Image_KernelBase", G_IMAGE, 2, image_kernelbase, 33),
  CLASS ("Image_HypercallPage", G_IMAGE, 2, image_hypercallpage, 34),
  CLASS ("PerfInfo_Mark", G_PERFINFO, 0, perfinfo_mark, 34),
  CLASS ("PerfInfo_SampledProfile", G_PERFINFO, 2, perfinfo_sample, 46),
  CLASS ("PerfInfo_PmcCounterProf", G_PERFINFO, 2, perfinfo_pmcsample, 47),
  CLASS ("SysCallEnter", G_PERFINFO, 2, perfinfo_syscallenter, 51),
  CLASS ("SysCallExit", G_PERFINFO, 2, perfinfo_syscallexit, 52),
  CLASS ("ISR_MSI", G_PERFINFO, 2, perfinfo_isr_msi, 50),
  CLASS ("ISR", G_PERFINFO, 2, perfinfo_isr, 67),
  CLASS ("DPC", G_PERFINFO, 2, perfinfo_dpc, 66, 68, 69),
  CLASS ("PerfInfo_SampledProfileInterval_V2", G_PERFINFO, 2, perfinfo_interval_v2, 72, 73, 74),
  CLASS ("PerfInfo_SampledProfileInterval_V3", G_PERFINFO, 3, perfinfo_interval_v3, 72, 73, 74),
  CLASS ("StackWalk_Event", G_STACKWALK, 2, stackwalk_event, 32),
  CLASS ("StackWalk_Key", G_STACKWALK, 2, stackwalk_key, 37, 38),
  CLASS ("StackWalk_KeyFrames", G_STACKWALK, 2, stackwalk_keyframes, 35, 36),
  CLASS ("ALPC_Message", G_ALPC, 2, alpc_message, 33, 34, 35),
  CLASS ("ALPC_Wait_For_New_Message", G_ALPC, 2, alpc_wait_new, 36),
  CLASS ("ALPC_Unwait", G_ALPC, 2, alpc_unwait, 37),
};
/* clang-format on */

const guint etl_mof_n_core_classes = G_N_ELEMENTS (etl_mof_core_classes);

/* ------------------------------------------------------------------------ */
/* Value maps and bitmaps                                                    */
/* ------------------------------------------------------------------------ */

typedef struct
{
  guint64 value;
  const char *name;
} MapRow;

typedef struct
{
  const char *name;
  gboolean is_bitmap;
  const MapRow *rows;
  guint n_rows;
} MapTable;

/* The tables keep one row per field, as the documentation lists them. */
/* clang-format off */
/* Process_V4_TypeGroup1.Flags, names as TraceEvent's ProcessFlags. */
static const MapRow process_flags[] = {
  { 0x0, "None" },
  { 0x1, "PackageFullName" },
  { 0x2, "Wow64" },
  { 0x4, "Protected" },
};

/* KWAIT_REASON (wdm.h), CSwitch.OldThreadWaitReason. */
static const MapRow kwait_reason[] = {
  { 0, "Executive" },          { 1, "FreePage" },         { 2, "PageIn" },
  { 3, "PoolAllocation" },     { 4, "DelayExecution" },   { 5, "Suspended" },
  { 6, "UserRequest" },        { 7, "WrExecutive" },      { 8, "WrFreePage" },
  { 9, "WrPageIn" },           { 10, "WrPoolAllocation" }, { 11, "WrDelayExecution" },
  { 12, "WrSuspended" },       { 13, "WrUserRequest" },   { 14, "WrEventPair" },
  { 15, "WrQueue" },           { 16, "WrLpcReceive" },    { 17, "WrLpcReply" },
  { 18, "WrVirtualMemory" },   { 19, "WrPageOut" },       { 20, "WrRendezvous" },
  { 21, "WrKeyedEvent" },      { 22, "WrTerminated" },    { 23, "WrProcessInSwap" },
  { 24, "WrCpuRateControl" },  { 25, "WrCalloutStack" },  { 26, "WrKernel" },
  { 27, "WrResource" },        { 28, "WrPushLock" },      { 29, "WrMutex" },
  { 30, "WrQuantumEnd" },      { 31, "WrDispatchInt" },   { 32, "WrPreempted" },
  { 33, "WrYieldExecution" },  { 34, "WrFastMutex" },     { 35, "WrGuardedMutex" },
  { 36, "WrRundown" },         { 37, "WrAlertByThreadId" }, { 38, "WrDeferredPreempt" },
};

/* KPROCESSOR_MODE, CSwitch.OldThreadWaitMode. */
static const MapRow kprocessor_mode[] = {
  { 0, "KernelMode" },
  { 1, "UserMode" },
};

/* KTHREAD_STATE, CSwitch.OldThreadState (the CSwitch page lists them). */
static const MapRow kthread_state[] = {
  { 0, "Initialized" }, { 1, "Ready" },      { 2, "Running" },
  { 3, "Standby" },     { 4, "Terminated" }, { 5, "Waiting" },
  { 6, "Transition" },  { 7, "DeferredReady" }, { 8, "GateWaitObsolete" },
  { 9, "WaitingForProcessInSwap" },
};

/* IRP flags (wdm.h IRP_*), DiskIo IrpFlags; TraceEvent's names.  The I/O
 * priority hint (bits 17–19) has no name and shows as 0x… . */
static const MapRow irp_flags[] = {
  { 0x0, "None" },
  { 0x1, "Nocache" },
  { 0x2, "PagingIo" },
  { 0x4, "SynchronousApi" },
  { 0x8, "AssociatedIrp" },
  { 0x10, "BufferedIo" },
  { 0x20, "DeallocateBuffer" },
  { 0x40, "InputOperation" },
  { 0x80, "CreateOperation" },
  { 0x100, "ReadOperation" },
  { 0x200, "WriteOperation" },
  { 0x400, "CloseOperation" },
  { 0x800, "DeferIoCompletion" },
  { 0x1000, "ObQueryName" },
  { 0x2000, "HoldDeviceQueue" },
  { 0x4000, "UmKernelBuffer" },
};

/* FileIo_Create.CreateOptions: FILE_* create options (ntifs.h, low 24 bits;
 * the disposition in the high byte shows as 0x…). */
static const MapRow file_create_options[] = {
  { 0x1, "FILE_DIRECTORY_FILE" },
  { 0x2, "FILE_WRITE_THROUGH" },
  { 0x4, "FILE_SEQUENTIAL_ONLY" },
  { 0x8, "FILE_NO_INTERMEDIATE_BUFFERING" },
  { 0x10, "FILE_SYNCHRONOUS_IO_ALERT" },
  { 0x20, "FILE_SYNCHRONOUS_IO_NONALERT" },
  { 0x40, "FILE_NON_DIRECTORY_FILE" },
  { 0x80, "FILE_CREATE_TREE_CONNECTION" },
  { 0x100, "FILE_COMPLETE_IF_OPLOCKED" },
  { 0x200, "FILE_NO_EA_KNOWLEDGE" },
  { 0x400, "FILE_OPEN_REMOTE_INSTANCE" },
  { 0x800, "FILE_RANDOM_ACCESS" },
  { 0x1000, "FILE_DELETE_ON_CLOSE" },
  { 0x2000, "FILE_OPEN_BY_FILE_ID" },
  { 0x4000, "FILE_OPEN_FOR_BACKUP_INTENT" },
  { 0x8000, "FILE_NO_COMPRESSION" },
  { 0x10000, "FILE_OPEN_REQUIRING_OPLOCK" },
  { 0x100000, "FILE_RESERVE_OPFILTER" },
  { 0x200000, "FILE_OPEN_REPARSE_POINT" },
  { 0x400000, "FILE_OPEN_NO_RECALL" },
  { 0x800000, "FILE_OPEN_FOR_FREE_SPACE_QUERY" },
};

/* FileIo_Create.FileAttributes: FILE_ATTRIBUTE_* (winnt.h). */
static const MapRow file_attributes[] = {
  { 0x0, "None" },
  { 0x1, "ReadOnly" },
  { 0x2, "Hidden" },
  { 0x4, "System" },
  { 0x10, "Directory" },
  { 0x20, "Archive" },
  { 0x40, "Device" },
  { 0x80, "Normal" },
  { 0x100, "Temporary" },
  { 0x200, "SparseFile" },
  { 0x400, "ReparsePoint" },
  { 0x800, "Compressed" },
  { 0x1000, "Offline" },
  { 0x2000, "NotContentIndexed" },
  { 0x4000, "Encrypted" },
};

/* FileIo_Create.ShareAccess: FILE_SHARE_* (winnt.h). */
static const MapRow file_share[] = {
  { 0x0, "None" },
  { 0x1, "Read" },
  { 0x2, "Write" },
  { 0x4, "Delete" },
};

/* PageFault_VirtualAlloc.Flags: MEM_* allocation types (winnt.h). */
static const MapRow mem_flags[] = {
  { 0x1000, "MEM_COMMIT" },   { 0x2000, "MEM_RESERVE" },     { 0x4000, "MEM_DECOMMIT" },
  { 0x8000, "MEM_RELEASE" },  { 0x80000, "MEM_RESET" },      { 0x100000, "MEM_TOP_DOWN" },
  { 0x200000, "MEM_WRITE_WATCH" }, { 0x400000, "MEM_PHYSICAL" }, { 0x1000000, "MEM_RESET_UNDO" },
  { 0x20000000, "MEM_LARGE_PAGES" },
};

/* clang-format on */

#define MT(name, bitmap, rows)                                                                     \
  {                                                                                                \
    (name), (bitmap), (rows), G_N_ELEMENTS (rows)                                                  \
  }

static const MapTable map_tables[] = {
  MT ("ProcessFlags", TRUE, process_flags),
  MT ("KWAIT_REASON", FALSE, kwait_reason),
  MT ("KPROCESSOR_MODE", FALSE, kprocessor_mode),
  MT ("KTHREAD_STATE", FALSE, kthread_state),
  MT ("IrpFlags", TRUE, irp_flags),
  MT ("FileCreateOptions", TRUE, file_create_options),
  MT ("FileAttributes", TRUE, file_attributes),
  MT ("FileShareAccess", TRUE, file_share),
  MT ("VirtualAllocFlags", TRUE, mem_flags),
};

static const MapTable *
find_map_table (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (map_tables); i++)
    if (strcmp (map_tables[i].name, name) == 0)
      return &map_tables[i];
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* Registration                                                              */
/* ------------------------------------------------------------------------ */

typedef struct
{
  const EtlMofClass *classes;
  const guint *n_classes;
} ClassList;

static const ClassList class_lists[] = {
  { etl_mof_core_classes, &etl_mof_n_core_classes },
  { etl_mof_io_classes, &etl_mof_n_io_classes },
  { etl_mof_config_classes, &etl_mof_n_config_classes },
};

/**
 * etl_mof_kernel_n_classes:
 *
 * Returns: the number of (class, version) layouts in the kernel tables
 */
guint
etl_mof_kernel_n_classes (void)
{
  guint n = 0;

  for (guint i = 0; i < G_N_ELEMENTS (class_lists); i++)
    n += *class_lists[i].n_classes;
  return n;
}

/* The class GUID and the task/opcode names of one (class, opcode), from
 * etl-names.c so that schemas name events as the record names do.  The
 * returned strings are newly allocated. */
static gboolean
class_names (const EtlMofClass *cls, guint8 opcode, EtlGuid *guid, char **task, char **op)
{
  *task = NULL;
  *op = NULL;
  if (cls->group >= 0)
    {
      EtlKernelEventInfo info;

      if (!etl_names_kernel_event ((guint16)(cls->group << 8 | opcode), &info)
          || info.provider == NULL)
        return FALSE;
      /* Image/Load is HookId 0x030A, but its class is Image and the table
       * lists it under the Image group, where 0x140A names it too. */
      *guid = *info.provider;
      *task = g_strdup (info.group_name);
      *op = g_strdup (info.opcode_name);
      return TRUE;
    }
  else
    {
      EtlRecord fake;
      char *name, *slash;

      memset (&fake, 0, sizeof fake);
      if (!etl_guid_parse (cls->guid, guid))
        return FALSE;
      fake.kind = ETL_RECORD_KIND_CLASSIC;
      fake.provider = *guid;
      fake.opcode = opcode;
      name = etl_record_dup_event_name (&fake);
      slash = strchr (name, '/');
      if (slash != NULL)
        {
          *task = g_strndup (name, slash - name);
          *op = g_strdup (slash + 1);
        }
      else
        *task = g_strdup (name);
      g_free (name);
      return TRUE;
    }
}

static guint
field_index (const EtlMofClass *cls, const char *name, guint before)
{
  for (guint i = 0; i < before; i++)
    if (strcmp (cls->fields[i].name, name) == 0)
      return i;
  g_assert_not_reached ();
  return 0;
}

static EtlSchema *
build_schema (const EtlMofClass *cls, const EtlGuid *guid, guint8 opcode, char *task, char *op)
{
  EtlSchemaKey key;
  EtlSchema *schema;

  etl_schema_key_init_opcode (&key, guid, opcode, cls->version);
  schema = etl_schema_new (&key, ETL_SCHEMA_SOURCE_MOF);
  schema->provider_name = g_strdup ("Windows Kernel");
  schema->event_name = g_strdup (cls->class_name);
  schema->task_name = task;
  schema->opcode_name = op;
  schema->opcode = opcode;
  for (guint i = 0; i < cls->n_fields; i++)
    {
      const EtlMofField *f = &cls->fields[i];
      guint k = etl_schema_add_property (schema, f->name, f->in_type, f->out_type);
      EtlProperty *p = &schema->properties[k];

      p->length = f->length;
      if (f->length != 0)
        p->flags |= ETL_PROPERTY_PARAM_FIXED_LENGTH;
      if (f->flags & ETL_MOF_TO_END)
        p->flags |= ETL_PROPERTY_TO_END;
      if (f->count_from != NULL)
        {
          p->flags |= ETL_PROPERTY_PARAM_COUNT;
          p->count = (guint16)field_index (cls, f->count_from, i);
        }
      if (f->map != NULL)
        p->map_name = g_strdup (f->map);
    }
  return schema;
}

static void
register_maps (EtlSchemaRegistry *registry, const EtlMofClass *cls, const EtlGuid *guid,
               GHashTable *done)
{
  char gbuf[ETL_GUID_STRING_LEN + 1];

  etl_guid_to_string (guid, gbuf);
  for (guint i = 0; i < cls->n_fields; i++)
    {
      const MapTable *mt;
      char *done_key;
      EtlMap *map;

      if (cls->fields[i].map == NULL)
        continue;
      done_key = g_strconcat (gbuf, "/", cls->fields[i].map, NULL);
      if (g_hash_table_contains (done, done_key))
        {
          g_free (done_key);
          continue;
        }
      g_hash_table_add (done, done_key);
      mt = find_map_table (cls->fields[i].map);
      g_assert (mt != NULL);
      map = etl_map_new (mt->name, mt->is_bitmap);
      for (guint r = 0; r < mt->n_rows; r++)
        etl_map_add (map, mt->rows[r].value, mt->rows[r].name);
      etl_schema_registry_add_map (registry, guid, map);
      etl_map_unref (map);
    }
}

/**
 * etl_mof_register_kernel:
 * @registry: the registry to fill
 *
 * Registers a schema (source %ETL_SCHEMA_SOURCE_MOF) for every (class,
 * version, opcode) of the kernel MOF tables, keyed as
 * etl_schema_key_for_record() keys SYSTEM, COMPACT, PERFINFO and
 * FULL_HEADER records (class GUID of the HookId's group, opcode, version),
 * and the value maps and bitmaps those schemas name under each class GUID.
 * Task and opcode names are etl-names.c's ("Process"/"DCStart",
 * "PerfInfo"/"Sample"); @event_name is the MOF class name.  Layouts come
 * from Microsoft's MOF class pages (MSNT_SystemTrace and its subclasses),
 * ntwmi.h, and where neither documents a type, the layout TraceEvent reads
 * (noted in the tables).  Calling it twice registers the same schemas again.
 */
void
etl_mof_register_kernel (EtlSchemaRegistry *registry)
{
  g_autoptr (GHashTable) done = NULL;

  g_return_if_fail (registry != NULL);

  done = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint l = 0; l < G_N_ELEMENTS (class_lists); l++)
    for (guint c = 0; c < *class_lists[l].n_classes; c++)
      {
        const EtlMofClass *cls = &class_lists[l].classes[c];

        for (guint o = 0; o < cls->n_opcodes; o++)
          {
            EtlGuid guid;
            char *task, *op;
            EtlSchema *schema;

            if (!class_names (cls, cls->opcodes[o], &guid, &task, &op))
              {
                g_warn_if_reached ();
                continue;
              }
            register_maps (registry, cls, &guid, done);
            schema = build_schema (cls, &guid, cls->opcodes[o], task, op);
            etl_schema_registry_add (registry, schema);
            etl_schema_unref (schema);
          }
      }
}
