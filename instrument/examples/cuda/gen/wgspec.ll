; ModuleID = 'wgspec.cu'
source_filename = "wgspec.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @wgspec(ptr noundef writeonly captures(none) %0, ptr noundef %1, ptr noundef readonly captures(none) %2, ptr noundef %3, ptr noundef writeonly captures(none) %4) local_unnamed_addr #0 !dbg !15 {
  %6 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !18
  %7 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !22
  %8 = icmp eq i32 %7, 0, !dbg !25
  br i1 %8, label %9, label %14, !dbg !25

9:                                                ; preds = %5
  %10 = zext nneg i32 %6 to i64, !dbg !26
  %11 = getelementptr inbounds nuw i32, ptr %0, i64 %10, !dbg !26
  store i32 42, ptr %11, align 4, !dbg !27, !tbaa !10
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !28
  %12 = icmp eq i32 %6, 0, !dbg !29
  br i1 %12, label %13, label %30, !dbg !29

13:                                               ; preds = %9
  tail call void asm sideeffect "st.release.sys.b32 [$0],$1;", "l,r,~{memory}"(ptr %1, i32 1) #3, !dbg !30, !srcloc !49
  br label %30, !dbg !50

14:                                               ; preds = %5
  %15 = add nsw i32 %7, -1, !dbg !51
  %16 = icmp eq i32 %6, 0, !dbg !52
  br i1 %16, label %17, label %23, !dbg !52

17:                                               ; preds = %14
  %18 = zext nneg i32 %15 to i64
  %19 = getelementptr inbounds nuw i32, ptr %3, i64 %18
  br label %20, !dbg !53

20:                                               ; preds = %17, %20
  %21 = tail call i32 asm sideeffect "ld.acquire.sys.b32 $0,[$1];", "=r,l,~{memory}"(ptr %19) #3, !dbg !54, !srcloc !69
  %22 = icmp eq i32 %21, 1, !dbg !70
  br i1 %22, label %23, label %20, !dbg !53, !llvm.loop !71

23:                                               ; preds = %20, %14
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !75
  %24 = shl i32 %15, 6, !dbg !76
  %25 = add i32 %24, %6, !dbg !77
  %26 = zext i32 %25 to i64, !dbg !78
  %27 = getelementptr inbounds nuw i32, ptr %2, i64 %26, !dbg !78
  %28 = load i32, ptr %27, align 4, !dbg !78, !tbaa !10
  %29 = getelementptr inbounds nuw i32, ptr %4, i64 %26, !dbg !79
  store i32 %28, ptr %29, align 4, !dbg !80, !tbaa !10
  br label %30

30:                                               ; preds = %9, %13, %23
  ret void, !dbg !81
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #2

attributes #0 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { convergent nocallback nounwind }
attributes #2 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { convergent nounwind }

!llvm.module.flags = !{!0, !1, !2, !3, !4, !5}
!llvm.dbg.cu = !{!6}
!llvm.ident = !{!8, !9}
!llvm.errno.tbaa = !{!10}
!nvvmir.version = !{!14}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 12, i32 9]}
!1 = !{i32 7, !"Dwarf Version", i32 2}
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 1, !"wchar_size", i32 4}
!4 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!5 = !{i32 7, !"frame-pointer", i32 2}
!6 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !7, producer: "Debian clang version 22.1.8 (1~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: DebugDirectivesOnly, splitDebugInlining: false, nameTableKind: None)
!7 = !DIFile(filename: "wgspec.cu", directory: ".")
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{i32 2, i32 0}
!15 = distinct !DISubprogram(name: "wgspec", scope: !7, file: !7, line: 26, type: !16, scopeLine: 27, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!16 = !DISubroutineType(types: !17)
!17 = !{}
!18 = !DILocation(line: 53, column: 27, scope: !19, inlinedAt: !21)
!19 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 53, type: !16, scopeLine: 53, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!20 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_builtin_vars.h", directory: "")
!21 = distinct !DILocation(line: 28, column: 18, scope: !15)
!22 = !DILocation(line: 66, column: 27, scope: !23, inlinedAt: !24)
!23 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 66, type: !16, scopeLine: 66, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!24 = distinct !DILocation(line: 29, column: 7, scope: !15)
!25 = !DILocation(line: 29, column: 18, scope: !15)
!26 = !DILocation(line: 31, column: 5, scope: !15)
!27 = !DILocation(line: 31, column: 35, scope: !15)
!28 = !DILocation(line: 33, column: 5, scope: !15)
!29 = !DILocation(line: 35, column: 13, scope: !15)
!30 = !DILocation(line: 945, column: 3, scope: !31, inlinedAt: !33)
!31 = distinct !DISubprogram(name: "__cuda_atomic_store<unsigned int>", scope: !32, file: !32, line: 943, type: !16, scopeLine: 945, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!32 = !DIFile(filename: "/usr/local/cuda/include/cccl/cuda/std/__atomic/functions/cuda_ptx_generated.h", directory: "")
!33 = distinct !DILocation(line: 1172, column: 5, scope: !34, inlinedAt: !35)
!34 = distinct !DISubprogram(name: "operator()<cuda::std::__4::integral_constant<cuda::std::__4::__atomic_cuda_memorder, (cuda::std::__4::__atomic_cuda_memorder)1> >", scope: !32, file: !32, line: 1171, type: !16, scopeLine: 1171, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!35 = distinct !DILocation(line: 861, column: 32, scope: !36, inlinedAt: !37)
!36 = distinct !DISubprogram(name: "__cuda_atomic_store_memory_order_dispatch<cuda::std::__4::__cuda_atomic_bind_store<unsigned int, cuda::std::__4::__atomic_cuda_operand_tag<(cuda::std::__4::__atomic_cuda_operand)3, 32UL>, cuda::std::__4::__thread_scope_system_tag, cuda::std::__4::integral_constant<bool, false> >, cuda::std::__4::__thread_scope_system_tag>", scope: !32, file: !32, line: 857, type: !16, scopeLine: 857, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!37 = distinct !DILocation(line: 1184, column: 3, scope: !38, inlinedAt: !39)
!38 = distinct !DISubprogram(name: "__atomic_store_cuda<int, cuda::std::__4::__thread_scope_system_tag>", scope: !32, file: !32, line: 1176, type: !16, scopeLine: 1177, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!39 = distinct !DILocation(line: 319, column: 3, scope: !40, inlinedAt: !42)
!40 = distinct !DISubprogram(name: "__atomic_store_n_cuda<int, cuda::std::__4::__thread_scope_system_tag>", scope: !41, file: !41, line: 317, type: !16, scopeLine: 318, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!41 = !DIFile(filename: "/usr/local/cuda/include/cccl/cuda/std/__atomic/functions/cuda_ptx_derived.h", directory: "")
!42 = distinct !DILocation(line: 95, column: 6, scope: !43, inlinedAt: !45)
!43 = distinct !DISubprogram(name: "__atomic_store_dispatch<const cuda::std::__4::__atomic_ref_storage<int>, int, cuda::std::__4::__thread_scope_system_tag, 0>", scope: !44, file: !44, line: 91, type: !16, scopeLine: 92, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!44 = !DIFile(filename: "/usr/local/cuda/include/cccl/cuda/std/__atomic/types/base.h", directory: "")
!45 = distinct !DILocation(line: 80, column: 3, scope: !46, inlinedAt: !48)
!46 = distinct !DISubprogram(name: "store", scope: !47, file: !47, line: 80, type: !16, scopeLine: 80, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!47 = !DIFile(filename: "/usr/local/cuda/include/cccl/cuda/std/__atomic/api/reference.h", directory: "")
!48 = distinct !DILocation(line: 39, column: 57, scope: !15)
!49 = !{i64 9200625}
!50 = !DILocation(line: 41, column: 5, scope: !15)
!51 = !DILocation(line: 43, column: 32, scope: !15)
!52 = !DILocation(line: 44, column: 13, scope: !15)
!53 = !DILocation(line: 45, column: 7, scope: !15)
!54 = !DILocation(line: 291, column: 3, scope: !55, inlinedAt: !56)
!55 = distinct !DISubprogram(name: "__cuda_atomic_load<unsigned int>", scope: !32, file: !32, line: 289, type: !16, scopeLine: 291, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!56 = distinct !DILocation(line: 830, column: 5, scope: !57, inlinedAt: !58)
!57 = distinct !DISubprogram(name: "operator()<cuda::std::__4::integral_constant<cuda::std::__4::__atomic_cuda_memorder, (cuda::std::__4::__atomic_cuda_memorder)2> >", scope: !32, file: !32, line: 829, type: !16, scopeLine: 829, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!58 = distinct !DILocation(line: 103, column: 32, scope: !59, inlinedAt: !60)
!59 = distinct !DISubprogram(name: "__cuda_atomic_load_memory_order_dispatch<cuda::std::__4::__cuda_atomic_bind_load<unsigned int, cuda::std::__4::__atomic_cuda_operand_tag<(cuda::std::__4::__atomic_cuda_operand)3, 32UL>, cuda::std::__4::__thread_scope_system_tag, cuda::std::__4::integral_constant<bool, false> >, cuda::std::__4::__thread_scope_system_tag>", scope: !32, file: !32, line: 97, type: !16, scopeLine: 97, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!60 = distinct !DILocation(line: 842, column: 3, scope: !61, inlinedAt: !62)
!61 = distinct !DISubprogram(name: "__atomic_load_cuda<int, cuda::std::__4::__thread_scope_system_tag>", scope: !32, file: !32, line: 834, type: !16, scopeLine: 835, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!62 = distinct !DILocation(line: 305, column: 3, scope: !63, inlinedAt: !64)
!63 = distinct !DISubprogram(name: "__atomic_load_n_cuda<int, cuda::std::__4::__thread_scope_system_tag>", scope: !41, file: !41, line: 302, type: !16, scopeLine: 303, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!64 = distinct !DILocation(line: 106, column: 13, scope: !65, inlinedAt: !66)
!65 = distinct !DISubprogram(name: "__atomic_load_dispatch<cuda::std::__4::__atomic_ref_storage<int>, cuda::std::__4::__thread_scope_system_tag, 0>", scope: !44, file: !44, line: 101, type: !16, scopeLine: 103, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!66 = distinct !DILocation(line: 80, column: 3, scope: !67, inlinedAt: !68)
!67 = distinct !DISubprogram(name: "load", scope: !47, file: !47, line: 80, type: !16, scopeLine: 80, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!68 = distinct !DILocation(line: 45, column: 62, scope: !15)
!69 = !{i64 9157485}
!70 = !DILocation(line: 45, column: 95, scope: !15)
!71 = distinct !{!71, !53, !72, !73, !74}
!72 = !DILocation(line: 46, column: 7, scope: !15)
!73 = !{!"llvm.loop.mustprogress"}
!74 = !{!"llvm.loop.unroll.disable"}
!75 = !DILocation(line: 48, column: 5, scope: !15)
!76 = !DILocation(line: 49, column: 44, scope: !15)
!77 = !DILocation(line: 49, column: 51, scope: !15)
!78 = !DILocation(line: 49, column: 30, scope: !15)
!79 = !DILocation(line: 49, column: 5, scope: !15)
!80 = !DILocation(line: 49, column: 28, scope: !15)
!81 = !DILocation(line: 51, column: 1, scope: !15)
