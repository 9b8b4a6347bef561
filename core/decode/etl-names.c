/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-names.c: names for kernel HookIds, classic opcodes, levels, well-known
 * providers, and TraceLogging metadata.
 *
 * SECTION:etl-names
 * @title: Event and provider names
 *
 * The NT Kernel Logger identifies its events by a 16-bit HookId, the group
 * (EVENT_TRACE_GROUP_* in ntwmi.h) in the high byte and the event type in the
 * low byte.  Consumers (TDH, TraceEvent) report such an event under the
 * GUID of its MOF class (ProcessGuid, ThreadGuid, …) and the class's name;
 * this module holds that mapping.  The spellings of group and opcode names
 * follow what Microsoft TraceEvent prints (KernelTraceEventParser), so that
 * a row here reads "Process/DCStart" where TraceEvent reads
 * "Windows Kernel/Process/DCStart"; event types TraceEvent does not name take
 * their names from ntwmi.h and evntrace.h.
 *
 * TraceLogging events carry their own names in two extended data items:
 * EVENT_HEADER_EXT_TYPE_PROV_TRAITS (the provider) and
 * EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL (the event and its fields), laid out
 * as TraceLoggingProvider.h describes.  Their parsers here treat the bytes
 * as hostile: every read is checked against the blob's length.
 */
#include "config.h"

#include "etl-names.h"

#include <string.h>

#include "etl-kernel-groups.h"

/* ------------------------------------------------------------------------ */
/* Kernel classes                                                            */
/* ------------------------------------------------------------------------ */

/*
 * Classes, indexed so that the first 31 entries are the kernel groups in
 * HookId order (EVENT_TRACE_GROUP_HEADER 0x00 … EVENT_TRACE_GROUP_HYPERVISORX
 * 0x1E).  The groups' GUIDs are the reader's (etl_kernel_group_class(): a
 * record's provider is one of them); the others come from evntrace.h
 * (SystemTraceControlGuid), Microsoft's "NT Kernel Logger Constants" page and
 * TraceEvent's KernelTraceEventParser.
 */
typedef enum
{
  C_EVENTTRACE,   /* 0x00 EVENT_TRACE_GROUP_HEADER */
  C_DISKIO,       /* 0x01 EVENT_TRACE_GROUP_IO */
  C_MEMORY,       /* 0x02 EVENT_TRACE_GROUP_MEMORY (PageFaultGuid) */
  C_PROCESS,      /* 0x03 */
  C_FILEIO,       /* 0x04 */
  C_THREAD,       /* 0x05 */
  C_TCPIP,        /* 0x06 */
  C_JOB,          /* 0x07 */
  C_UDPIP,        /* 0x08 */
  C_REGISTRY,     /* 0x09 */
  C_DBGPRINT,     /* 0x0A */
  C_SYSTEMCONFIG, /* 0x0B EVENT_TRACE_GROUP_CONFIG (EventTraceConfigGuid) */
  C_SPARE1,       /* 0x0C */
  C_WNF,          /* 0x0D */
  C_POOL,         /* 0x0E */
  C_PERFINFO,     /* 0x0F */
  C_HEAP,         /* 0x10 */
  C_OBJECT,       /* 0x11 */
  C_POWER,        /* 0x12 */
  C_MODBOUND,     /* 0x13 */
  C_IMAGE,        /* 0x14 */
  C_DPC,          /* 0x15 */
  C_CC,           /* 0x16 */
  C_CRITSEC,      /* 0x17 */
  C_STACKWALK,    /* 0x18 */
  C_UMS,          /* 0x19 */
  C_ALPC,         /* 0x1A */
  C_SPLITIO,      /* 0x1B */
  C_THREADPOOL,   /* 0x1C */
  C_HYPERVISOR,   /* 0x1D */
  C_HYPERVISORX,  /* 0x1E */
  C_N_GROUPS,
  /* Classes that have no HookId group of their own. */
  C_SYSTEMTRACE = C_N_GROUPS, /* SystemTraceControlGuid, the kernel logger itself */
  C_SYSCONFIG_EX,             /* xperf's SysConfig rundown (BuildInfo, VolumeMapping, …) */
  C_LOSTEVENT,                /* RT_LostEvent */
  C_KTC_IMAGEID,              /* KernelTraceControl ImageID */
  C_KTC_METADATA,             /* KernelTraceControl MetaData */
  C_KTC_WINSAT,               /* KernelTraceControl WinSat */
  C_N_CLASSES
} ClassId;

typedef struct
{
  const char *guid;
  const char *name;
} GuidName;

G_STATIC_ASSERT (C_N_GROUPS == ETL_KERNEL_N_GROUPS);

/* A group's GUID is NULL here: etl_kernel_group_class() has it. */
static const GuidName class_table[C_N_CLASSES] = {
  [C_EVENTTRACE] = { NULL, "EventTrace" },
  [C_DISKIO] = { NULL, "DiskIO" },
  [C_MEMORY] = { NULL, "Memory" },
  [C_PROCESS] = { NULL, "Process" },
  [C_FILEIO] = { NULL, "FileIO" },
  [C_THREAD] = { NULL, "Thread" },
  [C_TCPIP] = { NULL, "TcpIp" },
  [C_JOB] = { NULL, "Job" },
  [C_UDPIP] = { NULL, "UdpIp" },
  [C_REGISTRY] = { NULL, "Registry" },
  [C_DBGPRINT] = { NULL, "DbgPrint" },
  [C_SYSTEMCONFIG] = { NULL, "SystemConfig" },
  [C_SPARE1] = { NULL, "Spare1" },
  [C_WNF] = { NULL, "Wnf" },
  [C_POOL] = { NULL, "Pool" },
  [C_PERFINFO] = { NULL, "PerfInfo" },
  [C_HEAP] = { NULL, "Heap" },
  [C_OBJECT] = { NULL, "Object" },
  [C_POWER] = { NULL, "Power" },
  [C_MODBOUND] = { NULL, "ModBound" },
  [C_IMAGE] = { NULL, "Image" },
  [C_DPC] = { NULL, "DPC" },
  [C_CC] = { NULL, "CacheManager" },
  [C_CRITSEC] = { NULL, "CritSec" },
  [C_STACKWALK] = { NULL, "StackWalk" },
  [C_UMS] = { NULL, "UMS" },
  [C_ALPC] = { NULL, "ALPC" },
  [C_SPLITIO] = { NULL, "SplitIo" },
  [C_THREADPOOL] = { NULL, "ThreadPool" },
  [C_HYPERVISOR] = { NULL, "Hypervisor" },
  [C_HYPERVISORX] = { NULL, "HypervisorX" },
  [C_SYSTEMTRACE] = { "9e814aad-3204-11d2-9a82-006008a86939", "Windows Kernel" },
  [C_SYSCONFIG_EX] = { "9b79ee91-b5fd-41c0-a243-4248e266e9d0", "SysConfig" },
  [C_LOSTEVENT] = { "6a399ae0-4bc6-4de9-870b-3657f8947e7e", "LostEvent" },
  [C_KTC_IMAGEID] = { "b3e675d7-2554-4f18-830b-2762732560de", "KernelTraceControl" },
  [C_KTC_METADATA] = { "bbccf6c1-6cd1-48c4-80ff-839482e37671", "KernelTraceControl" },
  [C_KTC_WINSAT] = { "ed54dff8-c409-4cf6-bf83-05e1e61a09c4", "KernelTraceControl" },
};

/*
 * Named HookIds, sorted by HookId.  @group overrides the class name where
 * TraceEvent files an event under another task (ReadyThread under
 * "Dispatcher", VirtualAlloc under "VirtualMem"); @cls overrides the group's
 * class where the kernel logs an event under a foreign group (an image load is
 * HookId 0x030A, PROCESS group, but its class is Image).
 */
typedef struct
{
  guint16 hook_id;
  guint8 cls;
  const char *group;
  const char *opcode;
} HookName;

#define H(hook, cls, op)                                                                           \
  {                                                                                                \
    (hook), C_##cls, NULL, (op)                                                                    \
  }
#define HG(hook, cls, grp, op)                                                                     \
  {                                                                                                \
    (hook), C_##cls, (grp), (op)                                                                   \
  }

static const HookName hook_table[] = {
  /* EventTrace (WMI_LOG_TYPE_HEADER…) */
  H (0x0000, EVENTTRACE, "Header"),
  H (0x0005, EVENTTRACE, "Extension"),
  H (0x0008, EVENTTRACE, "RundownComplete"),
  H (0x0020, EVENTTRACE, "EndExtension"),
  H (0x0030, EVENTTRACE, "RundownBegin"),
  H (0x0031, EVENTTRACE, "RundownEnd"),
  H (0x0040, EVENTTRACE, "DbgIdRSDS"),
  H (0x0041, EVENTTRACE, "DbgIdNB10"),
  H (0x0042, EVENTTRACE, "BuildLab"),
  H (0x0043, EVENTTRACE, "BinaryPath"),
  H (0x0050, EVENTTRACE, "PartitionInfoExtension"),
  H (0x0052, EVENTTRACE, "LastDroppedTimes"),
  /* DiskIO (EVENT_TRACE_TYPE_IO_*, PERFINFO_LOG_TYPE_DRIVER_*) */
  H (0x010a, DISKIO, "Read"),
  H (0x010b, DISKIO, "Write"),
  H (0x010c, DISKIO, "ReadInit"),
  H (0x010d, DISKIO, "WriteInit"),
  H (0x010e, DISKIO, "FlushBuffers"),
  H (0x010f, DISKIO, "FlushInit"),
  H (0x0110, DISKIO, "RedirectedInit"),
  H (0x0122, DISKIO, "DriverMajorFunctionCall"),
  H (0x0123, DISKIO, "DriverMajorFunctionReturn"),
  H (0x0124, DISKIO, "DriverCompletionRoutineCall"),
  H (0x0125, DISKIO, "DriverCompletionRoutine"),
  H (0x0134, DISKIO, "DriverCompleteRequest"),
  H (0x0135, DISKIO, "DriverCompleteRequestReturn"),
  /* Memory (PageFault_V2 class; EVENT_TRACE_TYPE_MM_*, PERFINFO_LOG_TYPE_*) */
  H (0x020a, MEMORY, "TransitionFault"),
  H (0x020b, MEMORY, "DemandZeroFault"),
  H (0x020c, MEMORY, "CopyOnWrite"),
  H (0x020d, MEMORY, "GuardMemory"),
  H (0x020e, MEMORY, "HardMemory"),
  H (0x020f, MEMORY, "AccessViolation"),
  H (0x0220, MEMORY, "HardFault"),
  H (0x0223, MEMORY, "InMemory"),
  H (0x0249, MEMORY, "PFMappedSectionCreate"),
  H (0x024c, MEMORY, "SessionDCStop"),
  H (0x024f, MEMORY, "PFMappedSectionDelete"),
  HG (0x0262, MEMORY, "VirtualMem", "Alloc"),
  HG (0x0263, MEMORY, "VirtualMem", "Free"),
  H (0x0264, MEMORY, "HeapRangeRundown"),
  H (0x0265, MEMORY, "HeapRangeCreate"),
  H (0x0266, MEMORY, "HeapRangeReserve"),
  H (0x0267, MEMORY, "HeapRangeRelease"),
  H (0x0268, MEMORY, "HeapRangeDestroy"),
  H (0x0269, MEMORY, "ImageLoadBacked"),
  H (0x0270, MEMORY, "SystemMemInfo"),
  H (0x0273, MEMORY, "InMemoryStoreFault"),
  H (0x0275, MEMORY, "InMemoryActive"),
  H (0x0276, MEMORY, "PageAccess"),
  H (0x0277, MEMORY, "PageRelease"),
  H (0x0278, MEMORY, "RangeAccess"),
  H (0x0279, MEMORY, "RangeRelease"),
  H (0x027a, MEMORY, "Combine"),
  H (0x027b, MEMORY, "KernelMemUsage"),
  H (0x027c, MEMORY, "MMStats"),
  H (0x027d, MEMORY, "ProcessMemInfo"),
  H (0x027e, MEMORY, "MemInfoSessionWS"),
  H (0x027f, MEMORY, "VirtualRotate"),
  H (0x0280, MEMORY, "VirtualAllocDCStart"),
  H (0x0281, MEMORY, "VirtualAllocDCStop"),
  H (0x0282, MEMORY, "PageAccess"),
  H (0x0283, MEMORY, "RemoveFromWS"),
  H (0x0284, MEMORY, "WSSharableRundown"),
  H (0x0285, MEMORY, "InMemoryActiveRundown"),
  /* Process (WMI_LOG_TYPE_PROCESS_*, PERFINFO_LOG_TYPE_PROCESS_*) */
  H (0x0301, PROCESS, "Start"),
  H (0x0302, PROCESS, "Stop"),
  H (0x0303, PROCESS, "DCStart"),
  H (0x0304, PROCESS, "DCStop"),
  H (0x030a, IMAGE, "Load"),
  H (0x030b, PROCESS, "Terminate"),
  H (0x0320, PROCESS, "PerfCtr"),
  H (0x0321, PROCESS, "PerfCtrRundown"),
  H (0x0323, PROCESS, "InSwap"),
  H (0x0324, PROCESS, "Freeze"),
  H (0x0325, PROCESS, "Thaw"),
  H (0x0326, PROCESS, "BootPhaseStart"),
  H (0x0327, PROCESS, "Defunct"),
  H (0x0328, PROCESS, "SetAffinity"),
  /* FileIO: FileIo_Name (0, 32, 35, 36), MapFile (37–40), FileIo_* (64–82) */
  H (0x0400, FILEIO, "Name"),
  H (0x0420, FILEIO, "FileCreate"),
  H (0x0423, FILEIO, "FileDelete"),
  H (0x0424, FILEIO, "FileRundown"),
  H (0x0425, FILEIO, "MapFile"),
  H (0x0426, FILEIO, "UnmapFile"),
  H (0x0427, FILEIO, "MapFileDCStart"),
  H (0x0428, FILEIO, "MapFileDCStop"),
  H (0x0440, FILEIO, "Create"),
  H (0x0441, FILEIO, "Cleanup"),
  H (0x0442, FILEIO, "Close"),
  H (0x0443, FILEIO, "Read"),
  H (0x0444, FILEIO, "Write"),
  H (0x0445, FILEIO, "SetInfo"),
  H (0x0446, FILEIO, "Delete"),
  H (0x0447, FILEIO, "Rename"),
  H (0x0448, FILEIO, "DirEnum"),
  H (0x0449, FILEIO, "Flush"),
  H (0x044a, FILEIO, "QueryInfo"),
  H (0x044b, FILEIO, "FSControl"),
  H (0x044c, FILEIO, "OperationEnd"),
  H (0x044d, FILEIO, "DirNotify"),
  H (0x044e, FILEIO, "CreateNew"),
  H (0x044f, FILEIO, "DeletePath"),
  H (0x0450, FILEIO, "RenamePath"),
  H (0x0451, FILEIO, "SetLinkPath"),
  H (0x0452, FILEIO, "SetLink"),
  /* Thread (Thread_V2 class; ReadyThread is TraceEvent's "Dispatcher") */
  H (0x0501, THREAD, "Start"),
  H (0x0502, THREAD, "Stop"),
  H (0x0503, THREAD, "DCStart"),
  H (0x0504, THREAD, "DCStop"),
  H (0x0524, THREAD, "CSwitch"),
  H (0x0525, THREAD, "CompCS"),
  H (0x0529, THREAD, "SpinLock"),
  H (0x052a, THREAD, "Queue"),
  H (0x052b, THREAD, "Resource"),
  H (0x052c, THREAD, "PushLock"),
  H (0x052d, THREAD, "WaitSingle"),
  H (0x052e, THREAD, "WaitMultiple"),
  H (0x052f, THREAD, "DelayExecution"),
  H (0x0530, THREAD, "SetPriority"),
  H (0x0531, THREAD, "SetBasePriority"),
  HG (0x0532, THREAD, "Dispatcher", "ReadyThread"),
  H (0x0533, THREAD, "SetPagePriority"),
  H (0x0534, THREAD, "SetIoPriority"),
  H (0x0535, THREAD, "SetAffinity"),
  H (0x0539, THREAD, "WorkerThread"),
  H (0x053c, THREAD, "AntiStarvationBoost"),
  H (0x053d, THREAD, "ThreadMigration"),
  H (0x053e, THREAD, "Enqueue"),
  H (0x053f, THREAD, "Dequeue"),
  H (0x0540, THREAD, "WorkerThreadItemStart"),
  H (0x0541, THREAD, "WorkerThreadItemEnd"),
  H (0x0542, THREAD, "AutoBoostSetFloor"),
  H (0x0543, THREAD, "AutoBoostClearFloor"),
  H (0x0544, THREAD, "AutoBoostEntryExhaustion"),
  H (0x0545, THREAD, "SubProcessTagChanged"),
  H (0x0548, THREAD, "SetName"),
  /* TcpIp (EVENT_TRACE_TYPE_SEND… and the IPv6 variants 0x1A–0x26) */
  H (0x060a, TCPIP, "Send"),
  H (0x060b, TCPIP, "Recv"),
  H (0x060c, TCPIP, "Connect"),
  H (0x060d, TCPIP, "Disconnect"),
  H (0x060e, TCPIP, "Retransmit"),
  H (0x060f, TCPIP, "Accept"),
  H (0x0610, TCPIP, "Reconnect"),
  H (0x0611, TCPIP, "Fail"),
  H (0x0612, TCPIP, "TCPCopy"),
  H (0x0613, TCPIP, "ARPCopy"),
  H (0x0614, TCPIP, "FullACK"),
  H (0x0615, TCPIP, "PartACK"),
  H (0x0616, TCPIP, "DupACK"),
  H (0x061a, TCPIP, "SendIPV6"),
  H (0x061b, TCPIP, "RecvIPV6"),
  H (0x061c, TCPIP, "ConnectIPV6"),
  H (0x061d, TCPIP, "DisconnectIPV6"),
  H (0x061e, TCPIP, "RetransmitIPV6"),
  H (0x061f, TCPIP, "AcceptIPV6"),
  H (0x0620, TCPIP, "ReconnectIPV6"),
  H (0x0621, TCPIP, "FailIPV6"),
  H (0x0622, TCPIP, "TCPCopyIPV6"),
  H (0x0623, TCPIP, "ARPCopyIPV6"),
  H (0x0624, TCPIP, "FullACKIPV6"),
  H (0x0625, TCPIP, "PartACKIPV6"),
  H (0x0626, TCPIP, "DupACKIPV6"),
  /* Job (WMI_LOG_TYPE_JOB_*) */
  H (0x0720, JOB, "Create"),
  H (0x0721, JOB, "Terminate"),
  H (0x0722, JOB, "Open"),
  H (0x0723, JOB, "AssignProcess"),
  H (0x0724, JOB, "RemoveProcess"),
  H (0x0725, JOB, "Set"),
  H (0x0726, JOB, "Query"),
  H (0x0727, JOB, "SetFailed"),
  H (0x0728, JOB, "QueryFailed"),
  H (0x0729, JOB, "SetNotification"),
  H (0x072a, JOB, "SendNotification"),
  H (0x072b, JOB, "QueryViolation"),
  H (0x072c, JOB, "SetCpuRate"),
  H (0x072d, JOB, "SetNetRate"),
  /* UdpIp */
  H (0x080a, UDPIP, "Send"),
  H (0x080b, UDPIP, "Recv"),
  H (0x0811, UDPIP, "Fail"),
  H (0x081a, UDPIP, "SendIPV6"),
  H (0x081b, UDPIP, "RecvIPV6"),
  /* Registry (EVENT_TRACE_TYPE_REG*) */
  H (0x090a, REGISTRY, "Create"),
  H (0x090b, REGISTRY, "Open"),
  H (0x090c, REGISTRY, "Delete"),
  H (0x090d, REGISTRY, "Query"),
  H (0x090e, REGISTRY, "SetValue"),
  H (0x090f, REGISTRY, "DeleteValue"),
  H (0x0910, REGISTRY, "QueryValue"),
  H (0x0911, REGISTRY, "EnumerateKey"),
  H (0x0912, REGISTRY, "EnumerateValueKey"),
  H (0x0913, REGISTRY, "QueryMultipleValue"),
  H (0x0914, REGISTRY, "SetInformation"),
  H (0x0915, REGISTRY, "Flush"),
  H (0x0916, REGISTRY, "KCBCreate"),
  H (0x0917, REGISTRY, "KCBDelete"),
  H (0x0918, REGISTRY, "KCBRundownBegin"),
  H (0x0919, REGISTRY, "KCBRundownEnd"),
  H (0x091a, REGISTRY, "Virtualize"),
  H (0x091b, REGISTRY, "Close"),
  H (0x091c, REGISTRY, "SetSecurity"),
  H (0x091d, REGISTRY, "QuerySecurity"),
  H (0x091e, REGISTRY, "Commit"),
  H (0x091f, REGISTRY, "Prepare"),
  H (0x0920, REGISTRY, "Rollback"),
  H (0x0921, REGISTRY, "MountHive"),
  /* SystemConfig (EVENT_TRACE_TYPE_CONFIG_*) */
  H (0x0b0a, SYSTEMCONFIG, "CPU"),
  H (0x0b0b, SYSTEMCONFIG, "PhyDisk"),
  H (0x0b0c, SYSTEMCONFIG, "LogDisk"),
  H (0x0b0d, SYSTEMCONFIG, "NIC"),
  H (0x0b0e, SYSTEMCONFIG, "Video"),
  H (0x0b0f, SYSTEMCONFIG, "Services"),
  H (0x0b10, SYSTEMCONFIG, "Power"),
  H (0x0b11, SYSTEMCONFIG, "Network"),
  H (0x0b12, SYSTEMCONFIG, "OpticalMedia"),
  H (0x0b15, SYSTEMCONFIG, "IRQ"),
  H (0x0b16, SYSTEMCONFIG, "PnP"),
  H (0x0b17, SYSTEMCONFIG, "IDEChannel"),
  H (0x0b18, SYSTEMCONFIG, "NumaNode"),
  H (0x0b19, SYSTEMCONFIG, "Platform"),
  H (0x0b1a, SYSTEMCONFIG, "ProcessorGroup"),
  H (0x0b1b, SYSTEMCONFIG, "ProcessorNumber"),
  H (0x0b1c, SYSTEMCONFIG, "DPI"),
  H (0x0b1d, SYSTEMCONFIG, "CodeIntegrity"),
  H (0x0b1e, SYSTEMCONFIG, "MachineId"),
  H (0x0b1f, SYSTEMCONFIG, "Defrag"),
  H (0x0b20, SYSTEMCONFIG, "MobilePlatform"),
  H (0x0b21, SYSTEMCONFIG, "DeviceFamily"),
  H (0x0b22, SYSTEMCONFIG, "FlightId"),
  H (0x0b23, SYSTEMCONFIG, "Processor"),
  /* Pool (PoolTrace class, opcodes 32–35) */
  H (0x0e20, POOL, "PoolAlloc"),
  H (0x0e21, POOL, "PoolAllocSession"),
  H (0x0e22, POOL, "PoolFree"),
  H (0x0e23, POOL, "PoolFreeSession"),
  /* PerfInfo */
  H (0x0f22, PERFINFO, "Mark"),
  H (0x0f2e, PERFINFO, "Sample"),
  H (0x0f2f, PERFINFO, "PMCSample"),
  H (0x0f32, PERFINFO, "ISR"),
  H (0x0f33, PERFINFO, "SysClEnter"),
  H (0x0f34, PERFINFO, "SysClExit"),
  H (0x0f37, PERFINFO, "BatchedSample"),
  H (0x0f3a, PERFINFO, "DebuggerEnabled"),
  H (0x0f42, PERFINFO, "ThreadedDPC"),
  H (0x0f43, PERFINFO, "ISR"),
  H (0x0f44, PERFINFO, "DPC"),
  H (0x0f45, PERFINFO, "TimerDPC"),
  H (0x0f48, PERFINFO, "SetInterval"),
  H (0x0f49, PERFINFO, "CollectionStart"),
  H (0x0f4a, PERFINFO, "CollectionEnd"),
  /* Heap (PERFINFO_LOG_TYPE_HEAP_*) */
  H (0x1020, HEAP, "Create"),
  H (0x1021, HEAP, "Alloc"),
  H (0x1022, HEAP, "ReAlloc"),
  H (0x1023, HEAP, "Destroy"),
  H (0x1024, HEAP, "Free"),
  H (0x1025, HEAP, "Extend"),
  H (0x1026, HEAP, "Snapshot"),
  H (0x1027, HEAP, "Contract"),
  H (0x1028, HEAP, "Lock"),
  H (0x1029, HEAP, "Unlock"),
  H (0x102a, HEAP, "Validate"),
  H (0x102b, HEAP, "Walk"),
  /* Object */
  H (0x1120, OBJECT, "CreateHandle"),
  H (0x1121, OBJECT, "CloseHandle"),
  H (0x1122, OBJECT, "DuplicateHandle"),
  H (0x1125, OBJECT, "TypeDCEnd"),
  H (0x1127, OBJECT, "HandleDCEnd"),
  /* Image (WMI_LOG_TYPE_IMAGE_*; Load itself is logged as 0x030A) */
  H (0x1402, IMAGE, "Unload"),
  H (0x1403, IMAGE, "DCStart"),
  H (0x1404, IMAGE, "DCStop"),
  H (0x140a, IMAGE, "Load"),
  H (0x1420, IMAGE, "Relocation"),
  H (0x1421, IMAGE, "KernelBase"),
  H (0x1422, IMAGE, "HypercallPage"),
  /* StackWalk */
  H (0x1820, STACKWALK, "Stack"),
  H (0x1823, STACKWALK, "KeyDelete"),
  H (0x1824, STACKWALK, "KeyRundown"),
  H (0x1825, STACKWALK, "StackKeyKernel"),
  H (0x1826, STACKWALK, "StackKeyUser"),
  /* ALPC */
  H (0x1a21, ALPC, "SendMessage"),
  H (0x1a22, ALPC, "ReceiveMessage"),
  H (0x1a23, ALPC, "WaitForReply"),
  H (0x1a24, ALPC, "WaitForNewMessage"),
  H (0x1a25, ALPC, "Unwait"),
  /* SplitIo */
  H (0x1b20, SPLITIO, "VolMgr"),
  /* ThreadPool */
  H (0x1c20, THREADPOOL, "CBEnqueue"),
  H (0x1c21, THREADPOOL, "CBDequeue"),
  H (0x1c22, THREADPOOL, "CBStart"),
  H (0x1c23, THREADPOOL, "CBStop"),
  H (0x1c24, THREADPOOL, "CBCancel"),
  H (0x1c25, THREADPOOL, "PoolCreate"),
  H (0x1c26, THREADPOOL, "PoolClose"),
  H (0x1c27, THREADPOOL, "PoolSetMinThreads"),
  H (0x1c28, THREADPOOL, "PoolSetMaxThreads"),
};

#undef H
#undef HG

/*
 * Classic (EVENT_TRACE_HEADER) classes that are not HookId groups: xperf's
 * and PerfView's rundown helpers and the real-time loss class.  Names as
 * TraceEvent prints them ("KernelTraceControl/ImageID/DbgID_RSDS",
 * "Windows Kernel/SysConfig/VolumeMapping").  @opcode NULL means the task
 * name alone.
 */
typedef struct
{
  guint8 cls;
  guint8 type;
  const char *task;
  const char *opcode;
} ClassicName;

static const ClassicName classic_table[] = {
  { C_SYSCONFIG_EX, 32, "SysConfig", "BuildInfo" },
  { C_SYSCONFIG_EX, 33, "SysConfig", "SystemPaths" },
  { C_SYSCONFIG_EX, 34, "SysConfig", "UnknownVolume" },
  { C_SYSCONFIG_EX, 35, "SysConfig", "VolumeMapping" },
  { C_SYSCONFIG_EX, 36, "SysConfig", "NetworkInterface" }, /* names ours: etl-mof-config.c */
  { C_SYSCONFIG_EX, 37, "SysConfig", "OSVersion" },
  { C_LOSTEVENT, 32, "LostEvent", "RTLostEvent" },
  { C_LOSTEVENT, 33, "LostEvent", "RTLostBuffer" },
  { C_LOSTEVENT, 34, "LostEvent", "RTLostFile" },
  { C_KTC_IMAGEID, 0, "ImageID", NULL },
  { C_KTC_IMAGEID, 32, "ImageID", "None" },
  /* DBGID_LOG_TYPE_BIN / _DBG / _NB10 (TraceEvent's SymbolTraceEventParser
   * constants 0x21-0x23); their payloads have no public layout. */
  { C_KTC_IMAGEID, 33, "ImageID", "DbgID_BIN" },
  { C_KTC_IMAGEID, 34, "ImageID", "DbgID_DBG" },
  { C_KTC_IMAGEID, 35, "ImageID", "DbgID_NB10" },
  { C_KTC_IMAGEID, 36, "ImageID", "DbgID_RSDS" },
  { C_KTC_IMAGEID, 37, "ImageID", "DbgID_ILRSDS" },
  { C_KTC_IMAGEID, 38, "ImageID", "DbgPPDB" },
  { C_KTC_IMAGEID, 40, "ImageID", "DbgDeterm" },
  { C_KTC_IMAGEID, 64, "ImageID", "FileVersion" },
  { C_KTC_METADATA, 32, "MetaData", "EventInfo" },
  { C_KTC_METADATA, 33, "MetaData", "EventMapInfo" },
  { C_KTC_WINSAT, 33, "WinSat", "WinSPR" },
  { C_KTC_WINSAT, 35, "WinSat", "Metrics" },
  { C_KTC_WINSAT, 37, "WinSat", "SystemConfig" },
};

/* ------------------------------------------------------------------------ */
/* Well-known providers                                                      */
/* ------------------------------------------------------------------------ */

/*
 * Manifest, EventSource and TraceLogging providers.  Every GUID was checked
 * against a public source (provider manifests quoted in public repositories,
 * `logman query providers` listings, TraceEvent's parsers) or against the
 * corpus itself (the provider's events in net.4.5.2.x64.etl whose counts
 * match the TraceEvent baseline, or the PROV_TRAITS name carried by the
 * events).  A GUID may appear more than once: the first entry is the display
 * name, later ones are aliases accepted by etl_names_provider_lookup().
 */
static const GuidName provider_table[] = {
  /* .NET */
  { "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4", "Microsoft-Windows-DotNETRuntime" },
  { "a669021c-c450-4609-a035-5af59af4df18", "Microsoft-Windows-DotNETRuntimeRundown" },
  { "763fd754-7086-4dfe-95eb-c01a46faf4ca", "Microsoft-Windows-DotNETRuntimePrivate" },
  { "cc2bcbba-16b6-4cf3-8990-d74c2e8af500", "Microsoft-Windows-DotNETRuntimeStress" },
  { "2e5dba47-a3d2-4d16-8ee0-6671ffdcd7b5", "System.Threading.Tasks.TplEventSource" },
  { "8e9f5090-2d75-4d03-8a81-e5afbf85daf1", "System.Diagnostics.Eventing.FrameworkEventSource" },
  { "adb401e1-5296-51f8-c125-5fda75826144", "Microsoft-Diagnostics-DiagnosticSource" },
  { "35167f8e-49b2-4b96-ab86-435b59336b5e",
    "System.Collections.Concurrent.ConcurrentCollectionsEventSource" },
  { "aff081fe-0247-4275-9c4e-021f3dc1da35", "ASP.NET Events" },
  { "c651f5f6-1c0d-492e-8ae1-b4efd7c9d503", "Microsoft-Windows-Application Server-Applications" },
  /* PerfView and xperf helpers */
  { "a8a71ac1-040f-54a2-07ca-00a89b5ab761", "PerfView" },
  /* Kernel manifest providers */
  { "22fb2cd6-0e7b-422b-a0c7-2fad1fd0e716", "Microsoft-Windows-Kernel-Process" },
  { "edd08927-9cc4-4e65-b970-c2560fb5c289", "Microsoft-Windows-Kernel-File" },
  { "7dd42a49-5329-4832-8dfd-43d979153a88", "Microsoft-Windows-Kernel-Network" },
  { "c7bde69a-e1e0-4177-b6ef-283ad1525271", "Microsoft-Windows-Kernel-Disk" },
  { "d1d93ef7-e1f2-4f45-9943-03d245fe6c00", "Microsoft-Windows-Kernel-Memory" },
  { "331c3b3a-2005-44c2-ac5e-77220c37d6b4", "Microsoft-Windows-Kernel-Power" },
  { "70eb4f03-c1de-4f73-a051-33d13d5413bd", "Microsoft-Windows-Kernel-Registry" },
  { "b675ec37-bdb6-4648-bc92-f3fdc74d3ca2", "Microsoft-Windows-Kernel-EventTracing" },
  { "a68ca8b7-004f-d7b6-a698-07e2de0f1f5d", "Microsoft-Windows-Kernel-General" },
  { "15ca44ff-4d7a-4baa-bba5-0998955e531e", "Microsoft-Windows-Kernel-Boot" },
  { "9c205a39-1250-487d-abd7-e831c6290539", "Microsoft-Windows-Kernel-PnP" },
  { "0f67e49f-fe51-4e9f-b490-6f2948cc6027", "Microsoft-Windows-Kernel-Processor-Power" },
  { "e02a841c-75a3-4fa7-afc8-ae09cf9b7f23", "Microsoft-Windows-Kernel-Audit-API-Calls" },
  { "5322d61a-9efa-4bc3-a3f9-14be95c144f8", "Microsoft-Windows-Kernel-Prefetch" },
  { "abf1f586-2e50-4ba8-928d-49044e6f0db7", "Microsoft-Windows-Kernel-IO" },
  /* Security and diagnostics */
  { "2a576b87-09a7-520e-c21a-4942f0271d67", "Microsoft-Antimalware-Scan-Interface" },
  { "2a576b87-09a7-520e-c21a-4942f0271d67", "Microsoft-Windows-AMSI" },
  { "f4e1897c-bb5d-5668-f1d8-040f4d8dd344", "Microsoft-Windows-Threat-Intelligence" },
  { "54849625-5478-4994-a5ba-3e3b0328c30d", "Microsoft-Windows-Security-Auditing" },
  { "5770385f-c22a-43e0-bf4c-06f5698ffbd9", "Microsoft-Windows-Sysmon" },
  { "1418ef04-b0b4-4623-bf7e-d74ab47bbdaa", "Microsoft-Windows-WMI-Activity" },
  { "a0c1853b-5c40-4b15-8766-3cf1c58f985a", "Microsoft-Windows-PowerShell" },
  { "fc65ddd8-d6ef-4962-83d5-6e5cfe9ce148", "Microsoft-Windows-Eventlog" },
  /* Services, shell, session */
  { "0063715b-eeda-4007-9429-ad526f62696e", "Microsoft-Windows-Services" },
  { "555908d1-a6d7-4695-8e1e-26931d2012f4", "Service Control Manager" },
  { "de7b24ea-73c8-4a09-985d-5bdadcfa9017", "Microsoft-Windows-TaskScheduler" },
  { "dbe9b383-7cf3-4331-91cc-a3cb16a3b538", "Microsoft-Windows-Winlogon" },
  { "89b1e9f0-5aff-44a6-9b44-0a07a7ce5845", "Microsoft-Windows-User Profiles Service" },
  { "315a8872-923e-4ea2-9889-33cd4754bf64", "Microsoft-Windows-Immersive-Shell" },
  { "30336ed4-e327-447c-9de0-51b652c86108", "Microsoft-Windows-Shell-Core" },
  { "6ad52b32-d609-4be9-ae07-ce8dae937e39", "Microsoft-Windows-RPC" },
  { "bf406804-6afa-46e7-8a48-6c357e1d6d61", "Microsoft-Windows-COMRuntime" },
  /* Graphics */
  { "8c416c79-d49b-4f01-a467-e56d3aa8234c", "Microsoft-Windows-Win32k" },
  { "802ec45a-1e99-4b83-9920-87c98277ba9d", "Microsoft-Windows-DxgKrnl" },
  { "ca11c036-0102-4a2d-a6ad-f03cfed5d3c9", "Microsoft-Windows-DXGI" },
  { "9e9bba3c-2e38-40cb-99f4-9e8281425164", "Microsoft-Windows-Dwm-Core" },
  { "db6f6ddb-ac77-4e88-8253-819df9bbf140", "Microsoft-Windows-Direct3D11" },
  { "783aca0a-790e-4d7f-8451-aa850511c6b9", "Microsoft-Windows-D3D9" },
  /* Networking */
  { "2f07e2ee-15db-40f1-90ef-9d7ba282188a", "Microsoft-Windows-TCPIP" },
  { "1c95126e-7eea-49a9-a3fe-a378b03ddb4d", "Microsoft-Windows-DNS-Client" },
  { "e53c6823-7bb8-44bb-90dc-3f86090d48a6", "Microsoft-Windows-Winsock-AFD" },
  { "43d1a55c-76d6-4f7e-995c-64c711e5cafe", "Microsoft-Windows-WinINet" },
  { "7d44233d-3055-4b9c-ba64-0d47ca40a232", "Microsoft-Windows-WinHttp" },
  { "dd5ef90a-6398-47a4-ad34-4dcecdef795f", "Microsoft-Windows-HttpService" },
  { "988c59c5-0a1c-45b6-a555-0c62276e327d", "Microsoft-Windows-SMBClient" },
  { "2ed6006e-4729-4609-b423-3ee7bcd678ef", "Microsoft-Windows-NDIS-PacketCapture" },
  /* TraceLogging providers seen in the test corpus (names from PROV_TRAITS) */
  { "d3dd3dd4-aac2-4e2a-8dd4-a8fb61b77615", "solar_system" },
  { "8e805eb3-6a8f-4a1e-90fa-a831d94e54a1", "AmsiTrace" },
  { "0cd1c309-0878-4515-83db-749843b3f5c9", "Microsoft.Windows.Subsystem.LxCore" },
  { "a61ea624-4944-55fc-c2a8-37838829438d", "MySource" },
  /* Aliases */
  { "9e814aad-3204-11d2-9a82-006008a86939", "MSNT_SystemTrace" },
  { "9e814aad-3204-11d2-9a82-006008a86939", "NT Kernel Logger" },
  { "3d6fa8d3-fe05-11d0-9dda-00c04fd7ba7c", "PageFault" },
  { "01853a65-418f-4f36-aefc-dc0f1d2fd235", "EventTraceConfig" },
};

/* ------------------------------------------------------------------------ */
/* Tables built once                                                         */
/* ------------------------------------------------------------------------ */

typedef struct
{
  EtlGuid classes[C_N_CLASSES];
  EtlGuid *providers;  /* parallel to provider_table */
  GHashTable *by_guid; /* EtlGuid* → const char* display name, not owned */
} NameTables;

static const NameTables *
tables (void)
{
  static NameTables *t;

  if (g_once_init_enter (&t))
    {
      NameTables *nt = g_new0 (NameTables, 1);
      gboolean ok;

      nt->by_guid = g_hash_table_new (etl_guid_hash, etl_guid_equal_func);
      for (guint i = 0; i < C_N_CLASSES; i++)
        {
          if (i < C_N_GROUPS)
            nt->classes[i] = *etl_kernel_group_class (i);
          else
            {
              ok = etl_guid_parse (class_table[i].guid, &nt->classes[i]);
              g_assert (ok);
            }
          if (!g_hash_table_contains (nt->by_guid, &nt->classes[i]))
            g_hash_table_insert (nt->by_guid, &nt->classes[i], (gpointer)class_table[i].name);
        }
      nt->providers = g_new0 (EtlGuid, G_N_ELEMENTS (provider_table));
      for (guint i = 0; i < G_N_ELEMENTS (provider_table); i++)
        {
          ok = etl_guid_parse (provider_table[i].guid, &nt->providers[i]);
          g_assert (ok);
          if (!g_hash_table_contains (nt->by_guid, &nt->providers[i]))
            g_hash_table_insert (nt->by_guid, &nt->providers[i], (gpointer)provider_table[i].name);
        }
      for (guint i = 1; i < G_N_ELEMENTS (hook_table); i++)
        g_assert (hook_table[i - 1].hook_id < hook_table[i].hook_id);

      g_once_init_leave (&t, nt);
    }
  return t;
}

static int
compare_hook (const void *key, const void *elem)
{
  guint16 k = *(const guint16 *)key;
  const HookName *h = elem;

  return (int)k - (int)h->hook_id;
}

static const HookName *
find_hook (guint16 hook_id)
{
  return bsearch (&hook_id, hook_table, G_N_ELEMENTS (hook_table), sizeof hook_table[0],
                  compare_hook);
}

/**
 * etl_names_kernel_event:
 * @hook_id: the HookId of an NT Kernel Logger record (SYSTEM, COMPACT or
 *   PERFINFO header): group (EVENT_TRACE_GROUP_* in ntwmi.h) << 8 | event type
 * @info: (out caller-allocates) (optional): the names; its strings and GUID
 *   are static (transfer none)
 *
 * Names an NT Kernel Logger event.  The class and its GUID normally follow
 * the group, but a few event types belong to another class: HookId 0x030A
 * (PROCESS group, EVENT_TRACE_TYPE_LOAD) is an Image load and is reported
 * under ImageLoadGuid, as sechost.dll and TraceEvent do.  Group and opcode
 * names are TraceEvent's (KernelTraceEventParser: "DiskIO", "FileIO",
 * "Stop", "DCStop", "Sample"); event types TraceEvent leaves unnamed take
 * names from the WMI_LOG_TYPE_* and PERFINFO_LOG_TYPE_* constants of ntwmi.h.
 *
 * For a known group and an unknown event type, @info gets the group's name
 * and GUID and a %NULL @opcode_name.
 *
 * Returns: %TRUE if the group is a known kernel group (0x00–0x1E); %FALSE
 *   otherwise, and @info is then zeroed
 */
gboolean
etl_names_kernel_event (guint16 hook_id, EtlKernelEventInfo *info)
{
  const NameTables *t = tables ();
  guint group = hook_id >> 8;
  const HookName *h;
  EtlKernelEventInfo dummy;

  if (info == NULL)
    info = &dummy;
  memset (info, 0, sizeof *info);

  if (group >= C_N_GROUPS)
    return FALSE;

  h = find_hook (hook_id);
  if (h != NULL)
    {
      info->group_name = h->group != NULL ? h->group : class_table[h->cls].name;
      info->provider = &t->classes[h->cls];
      info->opcode_name = h->opcode;
    }
  else
    {
      info->group_name = class_table[group].name;
      info->provider = &t->classes[group];
      info->opcode_name = NULL;
    }
  return TRUE;
}

/**
 * etl_names_kernel_table_size:
 *
 * Returns: the number of HookIds with a named event type in the kernel table
 */
guint
etl_names_kernel_table_size (void)
{
  return G_N_ELEMENTS (hook_table);
}

/**
 * etl_names_provider_table_size:
 *
 * Returns: the number of rows in the well-known provider table, aliases
 *   included, kernel classes excluded
 */
guint
etl_names_provider_table_size (void)
{
  return G_N_ELEMENTS (provider_table);
}

/**
 * etl_names_classic_opcode:
 * @opcode: EVENT_TRACE_HEADER Class.Type or EVENT_DESCRIPTOR.Opcode
 *
 * Names the generic event types of evntrace.h (EVENT_TRACE_TYPE_INFO 0 …
 * EVENT_TRACE_TYPE_CHECKPOINT 8).  Types 2 and 4 (END, DC_END) take the
 * names winmeta.xml and TraceEvent use, "Stop" and "DCStop".
 *
 * Returns: (transfer none) (nullable): a static name, or %NULL for a
 *   provider-defined type (9 and above)
 */
const char *
etl_names_classic_opcode (guint opcode)
{
  static const char *const names[] = {
    "Info", "Start", "Stop", "DCStart", "DCStop", "Extension", "Reply", "Dequeue", "Checkpoint",
  };

  return opcode < G_N_ELEMENTS (names) ? names[opcode] : NULL;
}

/**
 * etl_names_level:
 * @level: EVENT_DESCRIPTOR.Level or Class.Level (0–255)
 *
 * Names the standard levels of evntrace.h / winmeta.xml: 0 LogAlways,
 * 1 Critical, 2 Error, 3 Warning, 4 Informational, 5 Verbose.
 *
 * Returns: (transfer none) (nullable): a static name, or %NULL above 5
 */
const char *
etl_names_level (guint level)
{
  static const char *const names[] = {
    "LogAlways", "Critical", "Error", "Warning", "Informational", "Verbose",
  };

  return level < G_N_ELEMENTS (names) ? names[level] : NULL;
}

/**
 * etl_names_provider:
 * @provider: a provider or kernel class GUID
 *
 * Looks up the name of a well-known provider: manifest and EventSource
 * providers (Microsoft-Windows-DotNETRuntime, Microsoft-Windows-Kernel-*,
 * …), the NT Kernel Logger's classes ("Process", "Thread", "DiskIO", …, as
 * TraceEvent names its tasks) and the classic helper classes xperf and
 * PerfView write (KernelTraceControl, SysConfig).
 *
 * Returns: (transfer none) (nullable): a static name, or %NULL if unknown
 */
const char *
etl_names_provider (const EtlGuid *provider)
{
  g_return_val_if_fail (provider != NULL, NULL);

  return g_hash_table_lookup (tables ()->by_guid, provider);
}

/**
 * etl_names_provider_lookup:
 * @name: a provider or kernel class name, any case
 * @provider: (out caller-allocates) (optional): its GUID
 *
 * The reverse of etl_names_provider(): finds the GUID of a well-known name,
 * comparing ASCII case-insensitively.  Aliases are accepted
 * ("MSNT_SystemTrace" and "NT Kernel Logger" for SystemTraceControlGuid,
 * "PageFault" for the Memory class).
 *
 * Returns: %TRUE if @name is known
 */
gboolean
etl_names_provider_lookup (const char *name, EtlGuid *provider)
{
  const NameTables *t;

  g_return_val_if_fail (name != NULL, FALSE);

  t = tables ();
  for (guint i = 0; i < C_N_CLASSES; i++)
    if (g_ascii_strcasecmp (name, class_table[i].name) == 0)
      {
        if (provider)
          *provider = t->classes[i];
        return TRUE;
      }
  for (guint i = 0; i < G_N_ELEMENTS (provider_table); i++)
    if (g_ascii_strcasecmp (name, provider_table[i].name) == 0)
      {
        if (provider)
          *provider = t->providers[i];
        return TRUE;
      }
  return FALSE;
}

/* ------------------------------------------------------------------------ */
/* TraceLogging metadata                                                     */
/* ------------------------------------------------------------------------ */

/* TraceLoggingProvider.h: field InType / OutType encoding. */
#define TLG_IN_TYPE_MASK 0x1f
#define TLG_IN_COUNT_MASK 0x60
#define TLG_IN_CCOUNT 0x20
#define TLG_IN_CUSTOM 0x60
#define TLG_IN_CHAIN 0x80
#define TLG_OUT_CHAIN 0x80
#define TLG_MAX_TAG_BYTES 4

/*
 * Checks a PROV_TRAITS / EVENT_SCHEMA_TL blob's leading u16 size and returns
 * the usable length: the declared size, which must cover the size field and
 * fit in the bytes we were given.
 */
static gboolean
tl_blob_end (const guint8 *blob, gsize len, gsize *end)
{
  guint declared;

  if (blob == NULL || len < 2)
    return FALSE;
  declared = blob[0] | (blob[1] << 8);
  if (declared < 2 || declared > len)
    return FALSE;
  *end = declared;
  return TRUE;
}

/*
 * Reads a NUL-terminated UTF-8 string at *pos, never looking at or past
 * @end.  Invalid UTF-8 is replaced, so the result is always valid.
 */
static char *
tl_read_string (const guint8 *blob, gsize *pos, gsize end)
{
  const guint8 *nul;
  gsize n;

  if (*pos >= end)
    return NULL;
  nul = memchr (blob + *pos, '\0', end - *pos);
  if (nul == NULL)
    return NULL;
  n = (gsize)(nul - (blob + *pos));
  {
    char *s = g_utf8_make_valid ((const char *)blob + *pos, (gssize)n);

    *pos += n + 1;
    return s;
  }
}

/* Skips a chain of bytes whose high bit says "another byte follows". */
static gboolean
tl_skip_chain (const guint8 *blob, gsize *pos, gsize end, guint max_bytes)
{
  for (guint i = 0; max_bytes == 0 || i < max_bytes; i++)
    {
      guint8 b;

      if (*pos >= end)
        return FALSE;
      b = blob[(*pos)++];
      if ((b & 0x80) == 0)
        return TRUE;
    }
  return FALSE;
}

/* Positions *pos after the event's name; returns the name. */
static char *
tl_event_header (const guint8 *schema, gsize len, gsize *pos, gsize *end)
{
  if (!tl_blob_end (schema, len, end))
    return NULL;
  *pos = 2;
  /* Extension bytes (the event tag): at least one, high bit chains. */
  if (!tl_skip_chain (schema, pos, *end, 0))
    return NULL;
  return tl_read_string (schema, pos, *end);
}

/**
 * etl_tracelogging_provider_name:
 * @traits: (array length=traits_len) (nullable): the data of an
 *   EVENT_HEADER_EXT_TYPE_PROV_TRAITS extended item
 * @traits_len: bytes at @traits
 *
 * Reads the provider name from TraceLogging provider traits.  Layout
 * (TraceLoggingProvider.h, "provider traits"): u16 total size in bytes
 * (little-endian, size field included), NUL-terminated UTF-8 name, then
 * traits.  A declared size larger than @traits_len, a missing NUL or an
 * empty name make the blob malformed.
 *
 * Returns: (transfer full) (nullable): the name (valid UTF-8), or %NULL if
 *   malformed
 */
char *
etl_tracelogging_provider_name (const guint8 *traits, gsize traits_len)
{
  gsize end, pos = 2;
  char *name;

  if (!tl_blob_end (traits, traits_len, &end))
    return NULL;
  name = tl_read_string (traits, &pos, end);
  if (name != NULL && name[0] == '\0')
    g_clear_pointer (&name, g_free);
  return name;
}

/**
 * etl_tracelogging_event_name:
 * @schema: (array length=schema_len) (nullable): the data of an
 *   EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL extended item
 * @schema_len: bytes at @schema
 *
 * Reads the event name from TraceLogging event metadata.  Layout
 * (TraceLoggingProvider.h, "event metadata"): u16 total size, one or more
 * extension bytes (each with bit 7 set when another follows; they carry the
 * event tag), NUL-terminated UTF-8 event name, then the fields.
 *
 * Returns: (transfer full) (nullable): the name, or %NULL if malformed or
 *   empty
 */
char *
etl_tracelogging_event_name (const guint8 *schema, gsize schema_len)
{
  gsize pos, end;
  char *name = tl_event_header (schema, schema_len, &pos, &end);

  if (name != NULL && name[0] == '\0')
    g_clear_pointer (&name, g_free);
  return name;
}

/**
 * etl_tracelogging_field_names:
 * @schema: (array length=schema_len) (nullable): the data of an
 *   EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL extended item
 * @schema_len: bytes at @schema
 *
 * Lists the names of a TraceLogging event's fields, in metadata order.
 * After the event name each field is (TraceLoggingProvider.h):
 * NUL-terminated UTF-8 name; u8 InType (bits 0–4 type, bits 5–6
 * _TlgInCcount 0x20 / TlgInVcount 0x40 / _TlgInCustom 0x60, bit 7
 * _TlgInChain); if chained, u8 OutType (bits 0–6 type, bit 7 _TlgOutChain);
 * if that is chained, the field tag as 1–4 bytes, bit 7 chaining; then a u16
 * element count for a constant-count array, or a u16 size and that many
 * bytes of type information for a custom-serialised field.  The members of a
 * struct (InType 24, member count in OutType) are listed as the fields that
 * follow it, flat.
 *
 * Returns: (transfer full) (array zero-terminated=1) (nullable): the field
 *   names (an empty vector for an event without fields), or %NULL if the
 *   metadata is malformed; free with g_strfreev()
 */
char **
etl_tracelogging_field_names (const guint8 *schema, gsize schema_len)
{
  g_autoptr (GPtrArray) names = NULL;
  gsize pos, end;
  char *event_name = tl_event_header (schema, schema_len, &pos, &end);

  if (event_name == NULL)
    return NULL;
  g_free (event_name);

  names = g_ptr_array_new_with_free_func (g_free);
  while (pos < end)
    {
      char *field = tl_read_string (schema, &pos, end);
      guint8 in_type;

      if (field == NULL)
        return NULL;
      g_ptr_array_add (names, field);

      if (pos >= end)
        return NULL;
      in_type = schema[pos++];
      if (in_type & TLG_IN_CHAIN)
        {
          guint8 out_type;

          if (pos >= end)
            return NULL;
          out_type = schema[pos++];
          if ((out_type & TLG_OUT_CHAIN) && !tl_skip_chain (schema, &pos, end, TLG_MAX_TAG_BYTES))
            return NULL;
        }
      switch (in_type & TLG_IN_COUNT_MASK)
        {
        case TLG_IN_CCOUNT:
          if (end - pos < 2)
            return NULL;
          pos += 2;
          break;
        case TLG_IN_CUSTOM:
          {
            guint info_size;

            if (end - pos < 2)
              return NULL;
            info_size = schema[pos] | (schema[pos + 1] << 8);
            pos += 2;
            if (end - pos < info_size)
              return NULL;
            pos += info_size;
          }
          break;
        default:
          break;
        }
    }

  g_ptr_array_add (names, NULL);
  return (char **)g_ptr_array_free (g_steal_pointer (&names), FALSE);
}

/* ------------------------------------------------------------------------ */
/* Record names                                                              */
/* ------------------------------------------------------------------------ */

static gboolean
is_kernel_kind (const EtlRecord *record)
{
  return record->kind == ETL_RECORD_KIND_KERNEL || record->kind == ETL_RECORD_KIND_PERFINFO;
}

/* The ClassId of a known class GUID, or -1. */
static int
class_of_guid (const EtlGuid *guid)
{
  const NameTables *t = tables ();

  for (guint i = 0; i < C_N_CLASSES; i++)
    if (etl_guid_equal (guid, &t->classes[i]))
      return (int)i;
  return -1;
}

static char *
kernel_event_name (guint16 hook_id)
{
  EtlKernelEventInfo info;

  if (!etl_names_kernel_event (hook_id, &info))
    return g_strdup_printf ("HookId(0x%04x)", hook_id);
  if (info.opcode_name != NULL)
    return g_strdup_printf ("%s/%s", info.group_name, info.opcode_name);
  return g_strdup_printf ("%s/Opcode(%u)", info.group_name, hook_id & 0xff);
}

static char *
classic_event_name (const EtlRecord *record)
{
  int cls = class_of_guid (&record->provider);
  const char *generic;

  if (cls >= 0)
    {
      for (guint i = 0; i < G_N_ELEMENTS (classic_table); i++)
        if (classic_table[i].cls == cls && classic_table[i].type == record->opcode)
          {
            if (classic_table[i].opcode == NULL)
              return g_strdup (classic_table[i].task);
            return g_strdup_printf ("%s/%s", classic_table[i].task, classic_table[i].opcode);
          }
      /* A kernel class logged with a full header (real-time relogging). */
      for (guint i = 0; i < G_N_ELEMENTS (hook_table); i++)
        if (hook_table[i].cls == cls && (hook_table[i].hook_id & 0xff) == record->opcode)
          return g_strdup_printf (
              "%s/%s", hook_table[i].group != NULL ? hook_table[i].group : class_table[cls].name,
              hook_table[i].opcode);
      for (guint i = 0; i < G_N_ELEMENTS (classic_table); i++)
        if (classic_table[i].cls == cls)
          return g_strdup_printf ("%s/Opcode(%u)", classic_table[i].task, record->opcode);
    }

  generic = etl_names_classic_opcode (record->opcode);
  if (generic != NULL)
    return g_strdup (generic);
  return g_strdup_printf ("Opcode(%u)", record->opcode);
}

/* EventSource's manifest event (id 0xFFFE, opcode 0xFE), as TraceEvent names it. */
#define EVENTSOURCE_MANIFEST_ID 0xFFFE

static char *
manifest_event_name (const EtlRecord *record)
{
  const char *op;

  if (record->event_id == EVENTSOURCE_MANIFEST_ID)
    return g_strdup ("ManifestData");
  /* Opcode 0 (Info) adds nothing to the id. */
  op = record->opcode != 0 ? etl_names_classic_opcode (record->opcode) : NULL;

  if (op != NULL)
    return g_strdup_printf ("Event(%u)/%s", record->event_id, op);
  return g_strdup_printf ("Event(%u)", record->event_id);
}

/**
 * etl_record_dup_provider_name:
 * @record: a decoded record
 *
 * Names the provider of @record, trying in turn: the TraceLogging provider
 * name in a PROV_TRAITS extended item; the well-known table
 * (etl_names_provider()); for kernel SYSTEM/COMPACT/PERFINFO records, the
 * class name of the HookId's group; and finally the provider GUID in
 * lower-case registry form without braces.
 *
 * Returns: (transfer full): the name; free with g_free()
 */
char *
etl_record_dup_provider_name (const EtlRecord *record)
{
  const guint8 *data;
  gsize len;
  const char *known;
  char buf[ETL_GUID_STRING_LEN + 1];

  g_return_val_if_fail (record != NULL, NULL);

  if (record->ext != NULL
      && etl_record_find_ext_item (record, ETL_EXT_TYPE_PROV_TRAITS, &data, &len))
    {
      char *name = etl_tracelogging_provider_name (data, len);

      if (name != NULL)
        return name;
    }

  known = etl_names_provider (&record->provider);
  if (known != NULL)
    return g_strdup (known);

  if (is_kernel_kind (record))
    {
      EtlKernelEventInfo info;

      if (etl_names_kernel_event (record->hook_id, &info))
        return g_strdup (info.group_name);
    }

  etl_guid_to_string (&record->provider, buf);
  return g_strdup (buf);
}

/**
 * etl_record_dup_event_name:
 * @record: a decoded record
 *
 * Names the event of @record without its provider:
 *
 * - kernel records: "Group/Opcode" as TraceEvent prints it after its
 *   "Windows Kernel/" prefix ("Process/DCStart", "PerfInfo/Sample"); the
 *   trace header (HookId 0x0000) is "EventTrace/Header"; an unnamed type is
 *   "Group/Opcode(N)" as TraceEvent spells it, an unknown group
 *   "HookId(0xNNNN)";
 * - TraceLogging records: the name in the EVENT_SCHEMA_TL item;
 * - manifest records (no manifest is available here): "ManifestData" for
 *   an EventSource's manifest (id 0xFFFE), else "Event(ID)", plus
 *   "/Opcode" when the opcode is a generic one of evntrace.h (1–8);
 * - classic FULL_HEADER/INSTANCE records: "Task/Opcode" for the classes this
 *   module knows (SysConfig, KernelTraceControl, kernel classes), else the
 *   generic opcode name or "Opcode(N)";
 * - WPP records: "Message(N)" with the message number.
 *
 * Returns: (transfer full): the name; free with g_free()
 */
char *
etl_record_dup_event_name (const EtlRecord *record)
{
  g_return_val_if_fail (record != NULL, NULL);

  switch (record->kind)
    {
    case ETL_RECORD_KIND_KERNEL:
    case ETL_RECORD_KIND_PERFINFO:
      return kernel_event_name (record->hook_id);

    case ETL_RECORD_KIND_TRACELOGGING:
      {
        const guint8 *data;
        gsize len;

        if (etl_record_find_ext_item (record, ETL_EXT_TYPE_EVENT_SCHEMA_TL, &data, &len))
          {
            char *name = etl_tracelogging_event_name (data, len);

            if (name != NULL)
              return name;
          }
      }
      return manifest_event_name (record);

    case ETL_RECORD_KIND_MANIFEST:
      return manifest_event_name (record);

    case ETL_RECORD_KIND_CLASSIC:
      return classic_event_name (record);

    case ETL_RECORD_KIND_WPP:
      return g_strdup_printf ("Message(%u)", record->event_id);

    default:
      {
        const char *type = etl_header_type_name (record->header_type);

        return g_strdup (type != NULL ? type : "Unknown");
      }
    }
}
