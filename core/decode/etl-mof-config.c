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

/* The layouts below up to the SysConfig section are TDH's kernel MOF
 * classes of EventTraceConfigGuid as a Windows 10/11 system lists them
 * (dissect.etl's TDH dump {01853a65-…}.xml): they are not on the MOF
 * pages.  Names are TDH's. */

/* SystemConfig_PnP, version 3, type 22: version 2 and the PDO name. */
static const EtlMofField config_pnp_v3[] = {
  F ("IDLength", UINT32, NULL),
  F ("DescriptionLength", UINT32, NULL),
  F ("FriendlyNameLength", UINT32, NULL),
  F ("DeviceID", UNICODESTRING, NULL),
  F ("DeviceDescription", UNICODESTRING, NULL),
  F ("FriendlyName", UNICODESTRING, NULL),
  F ("PdoName", UNICODESTRING, NULL),
};
/* SystemConfig_PnP, version 5, type 22: version 4 and the device's status
 * and problem code (CM_Get_DevNode_Status). */
static const EtlMofField config_pnp_v5[] = {
  F ("ClassGuid", GUID, NULL),
  F ("UpperFilterCount", UINT32, NULL),
  F ("LowerFilterCount", UINT32, NULL),
  F ("DevStatus", UINT32, HEXINT32),
  F ("DevProblem", UINT32, NULL),
  F ("DeviceID", UNICODESTRING, NULL),
  F ("DeviceDescription", UNICODESTRING, NULL),
  F ("FriendlyName", UNICODESTRING, NULL),
  F ("PdoName", UNICODESTRING, NULL),
  F ("ServiceName", UNICODESTRING, NULL),
  COUNTED ("UpperFilters", UNICODESTRING, NULL, "UpperFilterCount"),
  COUNTED ("LowerFilters", UNICODESTRING, NULL, "LowerFilterCount"),
};

/* SystemConfig_IRQ, version 3, type 21: version 2 and the processor group
 * of the affinity. */
static const EtlMofField config_irq_v3[] = {
  F ("IRQAffinity", UINT64, HEXINT64),
  F ("IRQGroup", UINT16, NULL),
  F ("Reserved", UINT16, NULL),
  F ("IRQNum", UINT32, NULL),
  F ("DeviceDescriptionLen", UINT32, NULL),
  F ("DeviceDescription", UNICODESTRING, NULL),
};

/* SystemConfig_NumaNode, version 2, type 24. */
static const EtlMofField config_numanode[] = {
  F ("NodeCount", UINT32, NULL),
  F ("NodeMap", UINT64, HEXINT64),
};

/* SystemConfig_ProcessorGroup, version 2, type 26. */
static const EtlMofField config_processorgroup[] = {
  F ("GroupCount", UINT32, NULL),
  F ("Affinity", POINTER, NULL),
};

/* SystemConfig_ProcessorNumber, version 2, type 27. */
static const EtlMofField config_processornumber[] = {
  F ("ProcessorCount", UINT32, NULL),
  F ("ProcessorNumber", UINT32, NULL),
};

/* SystemConfig_CodeIntegrity, version 2, type 29. */
static const EtlMofField config_codeintegrity[] = {
  F ("CodeIntegrityInfo", UINT32, HEXINT32),
};

/* SystemConfig_TelemetryConfiguration (MachineId), version 2, type 30. */
static const EtlMofField config_machineid[] = {
  F ("MachineId", GUID, NULL),
};

/* SystemConfig_Defragmentation, version 2, type 31. */
static const EtlMofField config_defrag[] = {
  F ("AlignmentClusters", UINT64, NULL),
  F ("AvgFreeSpaceSize", UINT64, NULL),
  F ("ClustersPerSlab", UINT64, NULL),
  F ("FragmentedDirectoryExtents", UINT64, NULL),
  F ("FragmentedExtents", UINT64, NULL),
  F ("FreeSpaceCount", UINT64, NULL),
  F ("LargestFreeSpaceSize", UINT64, NULL),
  F ("LastRunActualPurgeClusters", UINT64, NULL),
  F ("LastRunClustersTrimmed", UINT64, NULL),
  F ("LastRunFullDefragTime", UINT64, NULL),
  F ("LastRunTime", UINT64, NULL),
  F ("MFTSize", UINT64, NULL),
  F ("TotalClusters", UINT64, NULL),
  F ("TotalUsedClusters", UINT64, NULL),
  F ("AvgFragmentsPerFile", UINT32, NULL),
  F ("BytesPerCluster", UINT32, NULL),
  F ("DirectoryCount", UINT32, NULL),
  F ("FragmentedDirectories", UINT32, NULL),
  F ("FragmentedFiles", UINT32, NULL),
  F ("FragmentedSpace", UINT32, NULL),
  F ("HardwareIssue", UINT32, NULL),
  F ("InUseMFTRecords", UINT32, NULL),
  F ("InUseSlabs", UINT32, NULL),
  F ("LastRunActualPurgeSlabs", UINT32, NULL),
  F ("LastRunInitialBackedSlabs", UINT32, NULL),
  F ("LastRunPercentFragmentation", UINT32, NULL),
  F ("LastRunPinnedSlabs", UINT32, NULL),
  F ("LastRunPotentialPurgeSlabs", UINT32, NULL),
  F ("LastRunSpaceInefficientSlabs", UINT32, NULL),
  F ("LastRunTrimmedSlabs", UINT32, NULL),
  F ("LastRunUnknownEvictFailSlabs", UINT32, NULL),
  F ("LastRunVolsnapPinnedSlabs", UINT32, NULL),
  F ("MFTFragmentCount", UINT32, NULL),
  F ("MovableFiles", UINT32, NULL),
  F ("TotalMFTRecords", UINT32, NULL),
  F ("TotalSlabs", UINT32, NULL),
  F ("UnmovableFiles", UINT32, NULL),
  F ("VolumeId", GUID, NULL),
  F ("VolumePathNames", UNICODESTRING, NULL),
};

/* SystemConfig_MobilePlatform, version 2, type 32. */
static const EtlMofField config_mobileplatform[] = {
  F ("BootLoaderVersion", UNICODESTRING, NULL),
  F ("FirmwareRevision", UNICODESTRING, NULL),
  F ("FriendlyName", UNICODESTRING, NULL),
  F ("HardwareRevision", UNICODESTRING, NULL),
  F ("Manufacturer", UNICODESTRING, NULL),
  F ("ManufacturerDisplayName", UNICODESTRING, NULL),
  F ("ManufacturerModelName", UNICODESTRING, NULL),
  F ("MobileOperatorDisplayName", UNICODESTRING, NULL),
  F ("MobileOperatorName", UNICODESTRING, NULL),
  F ("ModelName", UNICODESTRING, NULL),
  F ("RadioHardwareRevision", UNICODESTRING, NULL),
  F ("RadioSoftwareRevision", UNICODESTRING, NULL),
  F ("ROMVersion", UNICODESTRING, NULL),
  F ("SOCVersion", UNICODESTRING, NULL),
  F ("HardwareVariant", UNICODESTRING, NULL),
};

/* SystemConfig_DeviceFamily, version 2, type 33. */
static const EtlMofField config_devicefamily[] = {
  F ("UAPInfo", UINT64, NULL),
  F ("DeviceFamily", UINT32, NULL),
  F ("DeviceForm", UINT32, NULL),
};

/* SystemConfig_FlightIds, version 2, type 34. */
static const EtlMofField config_flightids[] = {
  F ("UpdateId", UNICODESTRING, NULL),
  F ("FlightIdList", UNICODESTRING, NULL),
};

/* SystemConfig_Processors, version 2, type 35: one per processor. */
static const EtlMofField config_processors[] = {
  F ("ProcessorIndex", UINT32, NULL),
  F ("FeatureSet", UINT32, HEXINT32),
  F ("ProcessorSpeed", UINT32, NULL),
  FIXED ("ProcessorName", UNICODESTRING, NULL, 64),
  FIXED ("VendorIdentifier", UNICODESTRING, NULL, 16),
  FIXED ("ProcessorIdentifier", UNICODESTRING, NULL, 128),
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

/* NetworkInterface (type 36): one network interface.  Undocumented as an
 * event; the 1,352 bytes of each of the 71 records of sonde_test.etl are a
 * MIB_IF_ROW2 (netioapi.h), field for field: alias and description at
 * 0x1C and 0x21E, PhysicalAddressLength at 0x420, Mtu 1500 at 0x464,
 * Type 6 (ethernet), TransmitLinkSpeed at 0x4A8, the 18 counters to the
 * end.  Names are netioapi.h's; the padding netioapi.h's alignment adds
 * (after the one-byte flags, before TransmitLinkSpeed) is named here. */
static const EtlMofField sysconfig_networkinterface[] = {
  F ("InterfaceLuid", UINT64, HEXINT64),
  F ("InterfaceIndex", UINT32, NULL),
  F ("InterfaceGuid", GUID, NULL),
  FIXED ("Alias", UNICODESTRING, NULL, 257),
  FIXED ("Description", UNICODESTRING, NULL, 257),
  F ("PhysicalAddressLength", UINT32, NULL),
  FIXED ("PhysicalAddress", BINARY, HEXBINARY, 32),
  FIXED ("PermanentPhysicalAddress", BINARY, HEXBINARY, 32),
  F ("Mtu", UINT32, NULL),
  F ("Type", UINT32, NULL),
  F ("TunnelType", UINT32, NULL),
  F ("MediaType", UINT32, NULL),
  F ("PhysicalMediumType", UINT32, NULL),
  F ("AccessType", UINT32, NULL),
  F ("DirectionType", UINT32, NULL),
  F ("InterfaceAndOperStatusFlags", UINT8, HEXINT8),
  FIXED ("FlagsPadding", BINARY, HEXBINARY, 3),
  F ("OperStatus", UINT32, NULL),
  F ("AdminStatus", UINT32, NULL),
  F ("MediaConnectState", UINT32, NULL),
  F ("NetworkGuid", GUID, NULL),
  F ("ConnectionType", UINT32, NULL),
  F ("SpeedPadding", UINT32, NULL),
  F ("TransmitLinkSpeed", UINT64, NULL),
  F ("ReceiveLinkSpeed", UINT64, NULL),
  F ("InOctets", UINT64, NULL),
  F ("InUcastPkts", UINT64, NULL),
  F ("InNUcastPkts", UINT64, NULL),
  F ("InDiscards", UINT64, NULL),
  F ("InErrors", UINT64, NULL),
  F ("InUnknownProtos", UINT64, NULL),
  F ("InUcastOctets", UINT64, NULL),
  F ("InMulticastOctets", UINT64, NULL),
  F ("InBroadcastOctets", UINT64, NULL),
  F ("OutOctets", UINT64, NULL),
  F ("OutUcastPkts", UINT64, NULL),
  F ("OutNUcastPkts", UINT64, NULL),
  F ("OutDiscards", UINT64, NULL),
  F ("OutErrors", UINT64, NULL),
  F ("OutUcastOctets", UINT64, NULL),
  F ("OutMulticastOctets", UINT64, NULL),
  F ("OutBroadcastOctets", UINT64, NULL),
  F ("OutQLen", UINT64, NULL),
};
/* OSVersion (type 37): 16 bytes, undocumented.  In the five corpus files
 * that have it (SelfDescribingSingleEvent, net.4.5.2.x64, MonoGameTerrain2D,
 * msbuild (all zero), sonde_test) the first eight bytes are the Windows
 * version as four 16-bit parts, low first: 613.22000.0.10 is 10.0.22000.613,
 * 7462.26200.0.10 is 10.0.26200.7462, 836.18363.0.10 is 10.0.18363.836.
 * The next 32-bit value is 3 in all of them and the last 0 or 4; what they
 * mean is not known, so they keep neutral names.  Names are ours. */
static const EtlMofField sysconfig_osversion[] = {
  F ("Revision", UINT16, NULL),
  F ("BuildNumber", UINT16, NULL),
  F ("MinorVersion", UINT16, NULL),
  F ("MajorVersion", UINT16, NULL),
  F ("Value1", UINT32, NULL),
  F ("Value2", UINT32, NULL),
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
/* DbgPPDB (type 38), version 2: a portable-PDB image (TraceEvent's
 * DbgPPDBTraceData: ImageBase, ProcessID, TimeDateStamp, then the portable
 * PDB format version as two 16-bit values; 16 / 20 bytes). */
static const EtlMofField ktc_dbgppdb[] = {
  F ("ImageBase", POINTER, NULL),
  F ("ProcessId", UINT32, NULL),
  F ("TimeDateStamp", UINT32, NULL),
  F ("MajorVersion", UINT16, NULL),
  F ("MinorVersion", UINT16, NULL),
};
/* DbgDeterm (type 40), version 2: the image was built deterministically
 * (IMAGE_DEBUG_TYPE_REPRO); TraceEvent's DbgDetermTraceData: ImageBase and
 * ProcessID, 8 / 12 bytes. */
static const EtlMofField ktc_dbgdeterm[] = {
  F ("ImageBase", POINTER, NULL),
  F ("ProcessId", UINT32, NULL),
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
  CLASS ("SystemConfig_IRQ", G_CONFIG, 3, config_irq_v3, 21),
  CLASS ("SystemConfig_PnP", G_CONFIG, 2, config_pnp_v2, 22),
  CLASS ("SystemConfig_PnP", G_CONFIG, 3, config_pnp_v3, 22),
  CLASS ("SystemConfig_PnP", G_CONFIG, 4, config_pnp_v4, 22),
  CLASS ("SystemConfig_PnP", G_CONFIG, 5, config_pnp_v5, 22),
  CLASS ("SystemConfig_NumaNode", G_CONFIG, 2, config_numanode, 24),
  CLASS ("SystemConfig_ProcessorGroup", G_CONFIG, 2, config_processorgroup, 26),
  CLASS ("SystemConfig_ProcessorNumber", G_CONFIG, 2, config_processornumber, 27),
  CLASS ("SystemConfig_CodeIntegrity", G_CONFIG, 2, config_codeintegrity, 29),
  CLASS ("SystemConfig_TelemetryConfiguration", G_CONFIG, 2, config_machineid, 30),
  CLASS ("SystemConfig_Defragmentation", G_CONFIG, 2, config_defrag, 31),
  CLASS ("SystemConfig_MobilePlatform", G_CONFIG, 2, config_mobileplatform, 32),
  CLASS ("SystemConfig_DeviceFamily", G_CONFIG, 2, config_devicefamily, 33),
  CLASS ("SystemConfig_FlightIds", G_CONFIG, 2, config_flightids, 34),
  CLASS ("SystemConfig_Processors", G_CONFIG, 2, config_processors, 35),
  CLASS ("SystemConfig_IDEChannel", G_CONFIG, 2, config_idechannel, 23),
  CLASS ("SystemConfig_Platform", G_CONFIG, 2, config_platform, 25),
  CLASS ("SystemConfig_DPI", G_CONFIG, 2, config_dpi, 28),
  CLASSIC ("SysConfig_BuildInfo", SYSCONFIG, 0, sysconfig_buildinfo, 32),
  CLASSIC ("SysConfig_SystemPaths", SYSCONFIG, 0, sysconfig_systempaths, 33),
  CLASSIC ("SysConfig_UnknownVolume", SYSCONFIG, 0, sysconfig_unknownvolume, 34),
  CLASSIC ("SysConfig_VolumeMapping", SYSCONFIG, 0, sysconfig_volumemapping, 35),
  CLASSIC ("SysConfig_NetworkInterface", SYSCONFIG, 0, sysconfig_networkinterface, 36),
  CLASSIC ("SysConfig_OSVersion", SYSCONFIG, 0, sysconfig_osversion, 37),
  CLASSIC ("KernelTraceControl_ImageID", KTC, 2, ktc_imageid, 0),
  CLASSIC ("KernelTraceControl_ImageID_None", KTC, 2, ktc_none, 32),
  CLASSIC ("KernelTraceControl_DbgID_RSDS", KTC, 2, ktc_dbgid_rsds, 36, 37),
  CLASSIC ("KernelTraceControl_DbgPPDB", KTC, 2, ktc_dbgppdb, 38),
  CLASSIC ("KernelTraceControl_DbgDeterm", KTC, 2, ktc_dbgdeterm, 40),
  CLASSIC ("KernelTraceControl_FileVersion", KTC, 0, ktc_fileversion, 64),
};
/* clang-format on */

const guint etl_mof_n_config_classes = G_N_ELEMENTS (etl_mof_config_classes);
