/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-mof-config.c: layouts of the system configuration rundown: the
 * kernel's SystemConfig classes (EventTraceConfigGuid, group 0x0B), xperf's
 * classic SysConfig events (BuildInfo, SystemPaths, UnknownVolume,
 * VolumeMapping) and KernelTraceControl's ImageID/DbgID events that
 * PerfView and xperf merges add.  One row per field; see etl-mof-kernel.c
 * for the naming rules and registration.  Fixed arrays of char16 have a
 * length in characters, as TDH counts
 * them (char16 ComputerName[256] is 256).
 */

#include "config.h"

#include "etl-mof-kernel-private.h"

#define F ETL_MOF_F
#define FIXED ETL_MOF_FIXED
#define COUNTED ETL_MOF_COUNTED
#define CLASS ETL_MOF_CLASS
#define CLASSIC ETL_MOF_CLASSIC

/* The tables keep one row per field, as the documentation lists them. */
/* clang-format off */
/* ------------------------------------------------------------------------ */
/* SystemConfig                                                              */
/* ------------------------------------------------------------------------ */

/* SystemConfig_CPU, version 2, type 10. */
static const EtlMofField config_cpu_v2[] = {
  F ("MHz", UINT32, NULL),
  F ("NumberOfProcessors", UINT32, NULL),
  F ("MemSize", UINT32, NULL),
  F ("PageSize", UINT32, NULL),
  F ("AllocationGranularity", UINT32, NULL),
  FIXED ("ComputerName", UNICODESTRING, NULL, 256),
  FIXED ("DomainName", UNICODESTRING, NULL, 134),
  F ("HyperThreadingFlag", POINTER, NULL),
};
/* SystemConfig_V3_CPU, version 3, type 10. */
static const EtlMofField config_cpu_v3[] = {
  F ("MHz", UINT32, NULL),
  F ("NumberOfProcessors", UINT32, NULL),
  F ("MemSize", UINT32, NULL),
  F ("PageSize", UINT32, NULL),
  F ("AllocationGranularity", UINT32, NULL),
  FIXED ("ComputerName", UNICODESTRING, NULL, 256),
  FIXED ("DomainName", UNICODESTRING, NULL, 134),
  F ("HyperThreadingFlag", POINTER, NULL),
  F ("HighestUserAddress", POINTER, NULL),
  F ("ProcessorArchitecture", UINT16, NULL),
  F ("ProcessorLevel", UINT16, NULL),
  F ("ProcessorRevision", UINT16, NULL),
  F ("PaeEnabled", UINT8, NULL),
  F ("NxEnabled", UINT8, NULL),
  F ("MemorySpeed", UINT32, NULL),
};

/* SystemConfig_PhyDisk, version 2, type 11. */
static const EtlMofField config_phydisk[] = {
  F ("DiskNumber", UINT32, NULL),
  F ("BytesPerSector", UINT32, NULL),
  F ("SectorsPerTrack", UINT32, NULL),
  F ("TracksPerCylinder", UINT32, NULL),
  F ("Cylinders", UINT64, NULL),
  F ("SCSIPort", UINT32, NULL),
  F ("SCSIPath", UINT32, NULL),
  F ("SCSITarget", UINT32, NULL),
  F ("SCSILun", UINT32, NULL),
  FIXED ("Manufacturer", UNICODESTRING, NULL, 256),
  F ("PartitionCount", UINT32, NULL),
  F ("WriteCacheEnabled", UINT8, NULL),
  F ("Pad", UINT8, NULL),
  FIXED ("BootDriveLetter", UNICODESTRING, NULL, 3),
  FIXED ("Spare", UNICODESTRING, NULL, 2),
};

/* SystemConfig_LogDisk, version 2, type 12. */
static const EtlMofField config_logdisk[] = {
  F ("StartOffset", UINT64, NULL),
  F ("PartitionSize", UINT64, NULL),
  F ("DiskNumber", UINT32, NULL),
  F ("Size", UINT32, NULL),
  F ("DriveType", UINT32, NULL),
  FIXED ("DriveLetterString", UNICODESTRING, NULL, 4),
  F ("Pad1", UINT32, NULL),
  F ("PartitionNumber", UINT32, NULL),
  F ("SectorsPerCluster", UINT32, NULL),
  F ("BytesPerSector", UINT32, NULL),
  F ("Pad2", UINT32, NULL),
  F ("NumberOfFreeClusters", INT64, NULL),
  F ("TotalNumberOfClusters", INT64, NULL),
  FIXED ("FileSystem", UNICODESTRING, NULL, 16),
  F ("VolumeExt", UINT32, NULL),
  F ("Pad3", UINT32, NULL),
};

/* SystemConfig_NIC, version 2, type 13. */
static const EtlMofField config_nic[] = {
  F ("PhysicalAddr", UINT64, NULL),
  F ("PhysicalAddrLen", UINT32, NULL),
  F ("Ipv4Index", UINT32, NULL),
  F ("Ipv6Index", UINT32, NULL),
  F ("NICDescription", UNICODESTRING, NULL),
  F ("IpAddresses", UNICODESTRING, NULL),
  F ("DnsServerAddresses", UNICODESTRING, NULL),
};

/* SystemConfig_Video, version 2, type 14. */
static const EtlMofField config_video[] = {
  F ("MemorySize", UINT32, NULL),
  F ("XResolution", UINT32, NULL),
  F ("YResolution", UINT32, NULL),
  F ("BitsPerPixel", UINT32, NULL),
  F ("VRefresh", UINT32, NULL),
  FIXED ("ChipType", UNICODESTRING, NULL, 256),
  FIXED ("DACType", UNICODESTRING, NULL, 256),
  FIXED ("AdapterString", UNICODESTRING, NULL, 256),
  FIXED ("BiosString", UNICODESTRING, NULL, 256),
  FIXED ("DeviceId", UNICODESTRING, NULL, 256),
  F ("StateFlags", UINT32, HEXINT32),
};

/* SystemConfig_Services, version 2, type 15. */
static const EtlMofField config_services_v2[] = {
  F ("ProcessId", UINT32, NULL),
  F ("ServiceState", UINT32, NULL),
  F ("SubProcessTag", UINT32, NULL),
  F ("ServiceName", UNICODESTRING, NULL),
  F ("DisplayName", UNICODESTRING, NULL),
  F ("ProcessName", UNICODESTRING, NULL),
};
/* Version 3 (not on the MOF pages; as Windows 8 logs it): two more
 * strings, the first empty in every record seen, the second the svchost
 * group the service runs in ("netsvcs").  Names are ours. */
static const EtlMofField config_services_v3[] = {
  F ("ProcessId", UINT32, NULL),
  F ("ServiceState", UINT32, NULL),
  F ("SubProcessTag", UINT32, NULL),
  F ("ServiceName", UNICODESTRING, NULL),
  F ("DisplayName", UNICODESTRING, NULL),
  F ("ProcessName", UNICODESTRING, NULL),
  F ("LoadOrderGroup", UNICODESTRING, NULL),
  F ("SvchostGroup", UNICODESTRING, NULL),
};

/* SystemConfig_Power, version 2, type 16. */
static const EtlMofField config_power[] = {
  F ("S1", UINT8, NULL),   F ("S2", UINT8, NULL),   F ("S3", UINT8, NULL),
  F ("S4", UINT8, NULL),   F ("S5", UINT8, NULL),   F ("Pad1", UINT8, NULL),
  F ("Pad2", UINT8, NULL), F ("Pad3", UINT8, NULL),
};

/* SystemConfig_Network (TCP/IP parameters), version 2, type 17. */
static const EtlMofField config_network[] = {
  F ("TcbTablePartitions", UINT32, NULL), /* MOF: TcpTcbTablePartitions */
  F ("MaxHashTableSize", INT32, NULL),
  F ("MaxUserPort", UINT32, NULL),
  F ("TcpTimedWaitDelay", UINT32, NULL),
};

/* SystemConfig_OpticalMedia, version 2, type 18 (field order as logged). */
static const EtlMofField config_opticalmedia[] = {
  F ("DiskNumber", UINT16, NULL),
  F ("BusType", UINT16, NULL),
  F ("DeviceType", UINT16, NULL),
  F ("MediaType", UINT16, NULL),
  F ("StartingOffset", UINT64, NULL),
  F ("Size", UINT64, NULL),
  F ("NumberOfFreeBlocks", UINT64, NULL),
  F ("TotalNumberOfBlocks", UINT64, NULL),
  F ("NextWritableAddress", UINT64, NULL),
  F ("NumberOfSessions", UINT32, NULL),
  F ("NumberOfTracks", UINT32, NULL),
  F ("BytesPerSector", UINT32, NULL),
  F ("DiscStatus", UINT16, NULL),
  F ("LastSessionStatus", UINT16, NULL),
  F ("DriveLetter", UNICODESTRING, NULL),
  F ("FileSystemName", UNICODESTRING, NULL),
  F ("DeviceName", ANSISTRING, NULL),
  F ("ManufacturerName", ANSISTRING, NULL),
};

/* SystemConfig_IRQ, version 2, type 21. */
static const EtlMofField config_irq[] = {
  F ("IRQAffinity", UINT64, HEXINT64),
  F ("IRQNum", UINT32, NULL),
  F ("DeviceDescriptionLen", UINT32, NULL),
  F ("DeviceDescription", UNICODESTRING, NULL),
};

/* SystemConfig_PnP, version 2, type 22. */
static const EtlMofField config_pnp_v2[] = {
  F ("IDLength", UINT32, NULL),
  F ("DescriptionLength", UINT32, NULL),
  F ("FriendlyNameLength", UINT32, NULL),
  F ("DeviceID", UNICODESTRING, NULL),
  F ("DeviceDescription", UNICODESTRING, NULL),
  F ("FriendlyName", UNICODESTRING, NULL),
};
/* Version 4 (ntwmi.h WMI_PNP_RECORD_V4; not on the MOF pages): the device
 * class GUID, the filter counts, then the strings and the filter names. */
static const EtlMofField config_pnp_v4[] = {
  F ("ClassGuid", GUID, NULL),
  F ("UpperFilterCount", UINT32, NULL),
  F ("LowerFilterCount", UINT32, NULL),
  F ("DeviceID", UNICODESTRING, NULL),
  F ("DeviceDescription", UNICODESTRING, NULL),
  F ("FriendlyName", UNICODESTRING, NULL),
  F ("PdoName", UNICODESTRING, NULL),
  F ("ServiceName", UNICODESTRING, NULL),
  COUNTED ("UpperFilters", UNICODESTRING, NULL, "UpperFilterCount"),
  COUNTED ("LowerFilters", UNICODESTRING, NULL, "LowerFilterCount"),
};

/* SystemConfig_IDEChannel, version 2, type 23. */
static const EtlMofField config_idechannel[] = {
  F ("TargetId", UINT32, NULL),
  F ("DeviceType", UINT32, NULL),
  F ("DeviceTimingMode", UINT32, NULL),
  F ("LocationInformationLen", UINT32, NULL),
  F ("LocationInformation", UNICODESTRING, NULL),
};

/* SystemConfig_Platform, version 2, type 25 (ntwmi.h WMI_PLATFORM_RECORD). */
static const EtlMofField config_platform[] = {
  F ("SystemManufacturer", UNICODESTRING, NULL),
  F ("SystemProductName", UNICODESTRING, NULL),
  F ("BiosDate", UNICODESTRING, NULL),
  F ("BiosVersion", UNICODESTRING, NULL),
};

/* SystemConfig_DPI, version 2, type 28. */
static const EtlMofField config_dpi[] = {
  F ("MachineDPI", UINT32, NULL),
  F ("UserDPI", UINT32, NULL),
};

/* ------------------------------------------------------------------------ */
/* xperf's SysConfig rundown (classic, 9b79ee91-…), version 0               */
/* ------------------------------------------------------------------------ */

/* BuildInfo (type 32). */
static const EtlMofField sysconfig_buildinfo[] = {
  F ("InstallDate", FILETIME, NULL),
  F ("BuildLab", UNICODESTRING, NULL),
  F ("ProductName", UNICODESTRING, NULL),
};
/* SystemPaths (type 33). */
static const EtlMofField sysconfig_systempaths[] = {
  F ("SystemDirectory", UNICODESTRING, NULL),
  F ("SystemWindowsDirectory", UNICODESTRING, NULL),
};
/* UnknownVolume (type 34): an NT volume path with no drive letter;
 * TraceEvent prints the one string as Value. */
static const EtlMofField sysconfig_unknownvolume[] = {
  F ("Value", UNICODESTRING, NULL),
};
/* VolumeMapping (type 35): what EtlVolumeMap is filled from. */
static const EtlMofField sysconfig_volumemapping[] = {
  F ("NtPath", UNICODESTRING, NULL),
  F ("DosPath", UNICODESTRING, NULL),
};

/* ------------------------------------------------------------------------ */
/* KernelTraceControl ImageID (b3e675d7-…): PerfView / xperf merge rundown   */
/* ------------------------------------------------------------------------ */

/* ImageID (type 0), version 2: an image's identity. */
static const EtlMofField ktc_imageid[] = {
  F ("ImageBase", POINTER, NULL),
  F ("ImageSize", SIZET, NULL),
  F ("ProcessId", UINT32, NULL),
  F ("TimeDateStamp", UINT32, NULL),
  F ("OriginalFileName", UNICODESTRING, NULL),
};
/* ImageID/None (type 32), version 2: an image with no debug id. */
static const EtlMofField ktc_none[] = {
  F ("ImageBase", POINTER, NULL),
  F ("ProcessId", UINT32, NULL),
};
/* DbgID_RSDS (type 36) and DbgID_ILRSDS (type 37), version 2: the CodeView
 * RSDS record (PDB GUID, age, PDB path). */
static const EtlMofField ktc_dbgid_rsds[] = {
  F ("ImageBase", POINTER, NULL),
  F ("ProcessId", UINT32, NULL),
  F ("GuidSig", GUID, NULL),
  F ("Age", UINT32, NULL),
  F ("PdbFileName", ANSISTRING, NULL),
};
/* FileVersion (type 64), version 0: the image's version resource. */
static const EtlMofField ktc_fileversion[] = {
  F ("ImageSize", UINT32, NULL),
  F ("TimeDateStamp", UINT32, NULL),
  F ("OrigFileName", UNICODESTRING, NULL),
  F ("FileDescription", UNICODESTRING, NULL),
  F ("FileVersion", UNICODESTRING, NULL),
  F ("BinFileVersion", UNICODESTRING, NULL),
  F ("VerLanguage", UNICODESTRING, NULL),
  F ("ProductName", UNICODESTRING, NULL),
  F ("CompanyName", UNICODESTRING, NULL),
  F ("ProductVersion", UNICODESTRING, NULL),
  F ("FileId", UNICODESTRING, NULL),
  F ("ProgramId", UNICODESTRING, NULL),
};

/* ------------------------------------------------------------------------ */

#define G_CONFIG ETL_MOF_GROUP_CONFIG
#define SYSCONFIG ETL_MOF_GUID_SYSCONFIG_EX
#define KTC ETL_MOF_GUID_KTC_IMAGEID

const EtlMofClass etl_mof_config_classes[] = {
  CLASS ("SystemConfig_CPU", G_CONFIG, 2, config_cpu_v2, 10),
  CLASS ("SystemConfig_V3_CPU", G_CONFIG, 3, config_cpu_v3, 10),
  CLASS ("SystemConfig_PhyDisk", G_CONFIG, 2, config_phydisk, 11),
  CLASS ("SystemConfig_LogDisk", G_CONFIG, 2, config_logdisk, 12),
  CLASS ("SystemConfig_NIC", G_CONFIG, 2, config_nic, 13),
  CLASS ("SystemConfig_Video", G_CONFIG, 2, config_video, 14),
  CLASS ("SystemConfig_Services", G_CONFIG, 2, config_services_v2, 15),
  CLASS ("SystemConfig_Services", G_CONFIG, 3, config_services_v3, 15),
  CLASS ("SystemConfig_Power", G_CONFIG, 2, config_power, 16),
  CLASS ("SystemConfig_Network", G_CONFIG, 2, config_network, 17),
  CLASS ("SystemConfig_OpticalMedia", G_CONFIG, 2, config_opticalmedia, 18),
  CLASS ("SystemConfig_IRQ", G_CONFIG, 2, config_irq, 21),
  CLASS ("SystemConfig_PnP", G_CONFIG, 2, config_pnp_v2, 22),
  CLASS ("SystemConfig_PnP", G_CONFIG, 4, config_pnp_v4, 22),
  CLASS ("SystemConfig_IDEChannel", G_CONFIG, 2, config_idechannel, 23),
  CLASS ("SystemConfig_Platform", G_CONFIG, 2, config_platform, 25),
  CLASS ("SystemConfig_DPI", G_CONFIG, 2, config_dpi, 28),
  CLASSIC ("SysConfig_BuildInfo", SYSCONFIG, 0, sysconfig_buildinfo, 32),
  CLASSIC ("SysConfig_SystemPaths", SYSCONFIG, 0, sysconfig_systempaths, 33),
  CLASSIC ("SysConfig_UnknownVolume", SYSCONFIG, 0, sysconfig_unknownvolume, 34),
  CLASSIC ("SysConfig_VolumeMapping", SYSCONFIG, 0, sysconfig_volumemapping, 35),
  CLASSIC ("KernelTraceControl_ImageID", KTC, 2, ktc_imageid, 0),
  CLASSIC ("KernelTraceControl_ImageID_None", KTC, 2, ktc_none, 32),
  CLASSIC ("KernelTraceControl_DbgID_RSDS", KTC, 2, ktc_dbgid_rsds, 36, 37),
  CLASSIC ("KernelTraceControl_FileVersion", KTC, 0, ktc_fileversion, 64),
};
/* clang-format on */

const guint etl_mof_n_config_classes = G_N_ELEMENTS (etl_mof_config_classes);
